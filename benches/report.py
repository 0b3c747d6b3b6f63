#!/usr/bin/env python3
"""Turns the benchmark results into markdown tables and one SVG chart.

Run after `cargo bench -p pooled-benches` (or with `-- --quick`), from anywhere:

    python3 benches/report.py > /tmp/tables.md
    cargo bench -p pooled-benches --bench memory > /tmp/memory.md
    python3 benches/report.py --memory /tmp/memory.md > /tmp/tables.md

It reads criterion's results, target/criterion/<group>/<function>[/<parameter>]/new/
{benchmark.json,estimates.json}, and takes each benchmark's median (`median.point_estimate`, in
ns). It prints, per workload, every peer's median time and the ratio pooled / peer (below 1:
pooled is faster), and writes benches/chart.svg: those ratios as bars on a log scale, one group
of bars per workload. With --memory, the table printed by `cargo bench -p pooled-benches --bench memory` is added,
with the ratio of bytes per slot.

Python 3.11 standard library only.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from xml.sax.saxutils import escape

ROOT = Path(__file__).resolve().parent.parent
CRITERION = ROOT / "target" / "criterion"
CHART = ROOT / "benches" / "chart.svg"

# The order of rows in tables and chart; peers not listed come after, alphabetically.
PEERS = [
    "pooled",
    "pooled_lease",
    "slab",
    "slotmap",
    "dense_slotmap",
    "thunderdome",
    "sharded_slab",
    "lifeguard",
    "object_pool",
    "box",
    "bumpalo",
    "seed_scan",
    "seed_free_list",
    "vec",
]

# Other ways of running pooled: shown in the tables with their ratio to `pooled`, not charted.
POOLED_VARIANTS = {"pooled_lease": "pooled through `acquire`/`Lease` drop"}

NOTES = {
    ("churn", "bumpalo"): "allocates 1024 objects, then `reset()`: frees nothing one by one",
    ("churn", "vec"): "`swap_remove` + `push`",
    ("reuse", "object_pool"): "clears each object itself: object-pool does not reset",
    ("reuse", "box"): "fresh `Box` and buffers every time",
    ("reuse", "slotmap"): "inserts fresh objects",
    ("get", "sharded_slab"): "`get` returns a reference-counting guard",
}


@dataclass(frozen=True)
class Workload:
    key: str  # the chart's and the tables' name
    group: str  # criterion group
    parameter: str | None  # criterion parameter (value_str), if any
    title: str
    per: int | None  # divide the per-iteration median by this for the "per" column
    per_label: str | None
    iteration: str  # what one criterion iteration is


WORKLOADS = [
    Workload("churn", "churn", None, "churn", 1024, "per step",
             "1024 steps: release one random live object, create one (1024 slots, 512 live)"),
    Workload("iterate 10%", "iterate", "10", "iterate, 10% live", None, None,
             "sum `frames_left` over the live objects of 10,000 slots, 10% live"),
    Workload("iterate 50%", "iterate", "50", "iterate, 50% live", None, None,
             "sum `frames_left` over the live objects of 10,000 slots, 50% live"),
    Workload("iterate 90%", "iterate", "90", "iterate, 90% live", None, None,
             "sum `frames_left` over the live objects of 10,000 slots, 90% live"),
    Workload("particles", "particles", None, "particle frame", None, None,
             "one frame: spawn a burst of 200, animate all (about 8,000), release the dead"),
    Workload("reuse", "reuse", None, "heavy reuse", 16, "per object",
             "acquire 16 objects with a 4 KiB buffer, fill them, release them"),
    Workload("get", "get", None, "get", 10_000, "per lookup",
             "10,000 random lookups of live keys (10,000 slots, 50% live)"),
]


def peer_rank(peer: str) -> tuple[int, str]:
    return (PEERS.index(peer) if peer in PEERS else len(PEERS), peer)


def load_criterion() -> dict[tuple[str, str, str | None], float]:
    """(group, function, parameter) -> median in ns, for every benchmark criterion saved."""
    results = {}
    for estimates in CRITERION.glob("**/new/estimates.json"):
        directory = estimates.parent
        try:
            median = json.loads(estimates.read_text())["median"]["point_estimate"]
        except (OSError, KeyError, ValueError) as error:
            print(f"warning: skipping {estimates}: {error}", file=sys.stderr)
            continue
        meta_path = directory / "benchmark.json"
        if meta_path.exists():
            meta = json.loads(meta_path.read_text())
            group, function = meta["group_id"], meta["function_id"]
            parameter = meta.get("value_str")
        else:  # fall back on the directory names: <group>/<function>[/<parameter>]/new
            parts = directory.relative_to(CRITERION).parts[:-1]
            group, function = parts[0], parts[1] if len(parts) > 1 else parts[0]
            parameter = parts[2] if len(parts) > 2 else None
        results[(group, function, parameter)] = float(median)
    return results


def format_time(ns: float) -> str:
    """Three significant digits (at least), in the largest unit that keeps the value >= 1."""
    value, unit = ns, "ns"
    for name, scale in (("s", 1e9), ("ms", 1e6), ("µs", 1e3)):
        if ns >= scale:
            value, unit = ns / scale, name
            break
    decimals = 2 if value < 10 else 1 if value < 100 else 0
    return f"{value:.{decimals}f} {unit}"


def format_ratio(ratio: float | None) -> str:
    if ratio is None:
        return "–"
    return f"{ratio:.2f}" if ratio >= 0.1 else f"{ratio:.3f}"


def workload_rows(workload: Workload, results) -> list[tuple[str, float]]:
    rows = [
        (function, median)
        for (group, function, parameter), median in results.items()
        if group == workload.group and parameter == workload.parameter
    ]
    return sorted(rows, key=lambda row: peer_rank(row[0]))


def tables(results) -> tuple[str, dict[str, list[tuple[str, float]]]]:
    """The markdown tables, and the ratios pooled / peer of every workload for the chart."""
    out = []
    ratios: dict[str, list[tuple[str, float]]] = {}
    for workload in WORKLOADS:
        rows = workload_rows(workload, results)
        if not rows:
            print(f"warning: no results for {workload.title}", file=sys.stderr)
            continue
        medians = dict(rows)
        pooled = medians.get("pooled")
        out.append(f"### {workload.title}\n")
        out.append(f"One iteration: {workload.iteration}.\n")
        header = "| peer | median / iteration |"
        rule = "|---|---:|"
        if workload.per:
            header += f" median {workload.per_label} |"
            rule += "---:|"
        header += " pooled / peer | note |"
        rule += "---:|---|"
        out += [header, rule]
        charted = []
        for peer, median in rows:
            ratio = pooled / median if pooled is not None else None
            line = f"| {peer} | {format_time(median)} |"
            if workload.per:
                line += f" {format_time(median / workload.per)} |"
            note = NOTES.get((workload.group, peer), POOLED_VARIANTS.get(peer, ""))
            line += f" {format_ratio(ratio)} | {note} |"
            out.append(line)
            if ratio is not None and peer != "pooled" and peer not in POOLED_VARIANTS:
                charted.append((peer, ratio))
        if pooled is None:
            out.append("\n(no `pooled` result: no ratios)")
        out.append("")
        ratios[workload.key] = charted
    return "\n".join(out), ratios


def memory_table(path: Path) -> tuple[str, list[tuple[str, float]]]:
    """The memory program's table with a ratio column, and the ratios for the chart."""
    text = path.read_text()
    intro = [line for line in text.splitlines() if line and not line.startswith("|")]
    rows = []
    for line in text.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) < 6 or cells[0] in ("peer",) or set(cells[0]) <= set("-: "):
            continue
        try:
            rows.append((cells[0], float(cells[1]), cells[2:]))
        except ValueError:
            continue
    if not rows:
        raise SystemExit(f"error: no table rows in {path}: pass the output of `cargo bench -p pooled-benches --bench memory`")
    bytes_of = {peer: per_slot for peer, per_slot, _ in rows}
    pooled = bytes_of.get("pooled")
    out = ["### memory\n"]
    out += [line for line in intro if not line.startswith(("Running", "Finished"))]
    out += [
        "",
        "| peer | heap bytes / slot | pooled / peer | allocations | key | key bytes | Option<key> bytes |",
        "|---|---:|---:|---:|---|---:|---:|",
    ]
    charted = []
    for peer, per_slot, rest in sorted(rows, key=lambda row: peer_rank(row[0])):
        ratio = pooled / per_slot if pooled is not None and per_slot > 0 else None
        out.append(f"| {peer} | {per_slot:.1f} | {format_ratio(ratio)} | " + " | ".join(rest) + " |")
        if ratio is not None and peer != "pooled":
            charted.append((peer, ratio))
    out.append("")
    return "\n".join(out), charted


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    try:
        rustc = subprocess.run(
            ["rustc", "--version"], cwd=ROOT, capture_output=True, text=True, check=True
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        rustc = "rustc: unknown"
    return f"{cpu}, {os.cpu_count()} logical cores, {platform.system()} {platform.release()}, {rustc}"


# ---------------------------------------------------------------------------------------------
# chart


PALETTE = {
    "slab": "#4e79a7",
    "slotmap": "#f28e2b",
    "dense_slotmap": "#e15759",
    "thunderdome": "#76b7b2",
    "sharded_slab": "#59a14f",
    "lifeguard": "#edc948",
    "object_pool": "#b07aa1",
    "box": "#ff9da7",
    "bumpalo": "#9c755f",
    "seed_scan": "#bab0ac",
    "seed_free_list": "#6b6b6b",
    "vec": "#17becf",
}


def chart(ratios: dict[str, list[tuple[str, float]]]) -> str:
    """Horizontal bars of pooled / peer on a log scale, grouped by workload, bars drawn from the
    1.0 line: left of it pooled is faster, right of it the peer is."""
    groups = [(name, bars) for name, bars in ratios.items() if bars]
    values = [ratio for _, bars in groups for _, ratio in bars]
    # Whole decades, with room for the value labels beyond the longest bars.
    low = 10 ** math.floor(math.log10(min(values + [0.5]) / 1.6))
    high = 10 ** math.ceil(math.log10(max(values + [2.0]) * 1.6))
    left, plot_width, right = 250, 620, 70
    top, row, group_gap, header = 92, 17, 14, 22
    height = top + sum(header + row * len(bars) + group_gap for _, bars in groups) + 40
    width = left + plot_width + right

    def x(ratio: float) -> float:
        return left + plot_width * (math.log10(ratio) - math.log10(low)) / (
            math.log10(high) - math.log10(low)
        )

    svg = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="DejaVu Sans, Helvetica, Arial, sans-serif" '
        f'font-size="12">',
        f'<rect width="{width}" height="{height}" fill="white"/>',
        f'<text x="{width / 2}" y="24" text-anchor="middle" font-size="16" font-weight="bold">'
        "pooled time / peer time (median), log scale</text>",
        f'<text x="{width / 2}" y="44" text-anchor="middle" fill="#333">'
        "below 1: pooled is faster (bar to the left); above 1: the peer is faster</text>",
    ]
    # Grid: every power of ten, and 2 and 5 between.
    ticks = []
    decade = low
    while decade <= high * 1.0001:
        for multiple in (1, 2, 5):
            tick = decade * multiple
            if low * 0.9999 <= tick <= high * 1.0001:
                ticks.append(tick)
        decade *= 10
    plot_bottom = height - 40
    for tick in ticks:
        major = math.isclose(math.log10(tick), round(math.log10(tick)))
        svg.append(
            f'<line x1="{x(tick):.1f}" y1="{top - 14}" x2="{x(tick):.1f}" y2="{plot_bottom}" '
            f'stroke="{"#bbb" if major else "#e4e4e4"}" stroke-width="1"/>'
        )
        label = f"{tick:g}"
        for y in (top - 20, plot_bottom + 16):
            svg.append(
                f'<text x="{x(tick):.1f}" y="{y}" text-anchor="middle" fill="#555" '
                f'font-size="{11 if major else 9}">{label}</text>'
            )
    y = top
    for name, bars in groups:
        svg.append(
            f'<text x="12" y="{y + 15}" font-weight="bold" font-size="13">{escape(name)}</text>'
        )
        y += header
        for peer, ratio in bars:
            x0, x1 = x(1.0), x(ratio)
            colour = PALETTE.get(peer, "#888")
            svg.append(
                f'<text x="{left - 8}" y="{y + row - 5}" text-anchor="end">{escape(peer)}</text>'
            )
            svg.append(
                f'<rect x="{min(x0, x1):.1f}" y="{y + 2}" width="{max(abs(x1 - x0), 1):.1f}" '
                f'height="{row - 4}" fill="{colour}"><title>{escape(name)}: {escape(peer)}: '
                f"{format_ratio(ratio)}</title></rect>"
            )
            anchor, offset = ("start", 4) if ratio >= 1 else ("end", -4)
            svg.append(
                f'<text x="{x1 + offset:.1f}" y="{y + row - 5}" text-anchor="{anchor}" '
                f'font-size="10" fill="#222">{format_ratio(ratio)}</text>'
            )
            y += row
        y += group_gap
        svg.append(
            f'<line x1="12" y1="{y - group_gap / 2:.1f}" x2="{width - 12}" '
            f'y2="{y - group_gap / 2:.1f}" stroke="#eee"/>'
        )
    svg.append(
        f'<line x1="{x(1.0):.1f}" y1="{top - 14}" x2="{x(1.0):.1f}" y2="{plot_bottom}" '
        'stroke="black" stroke-width="2"/>'
    )
    svg.append("</svg>")
    return "\n".join(svg) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--memory",
        type=Path,
        metavar="FILE",
        help="the output of `cargo bench --bench memory`, to add its table (and chart group)",
    )
    parser.add_argument(
        "--chart", type=Path, default=CHART, help=f"where to write the SVG (default {CHART})"
    )
    args = parser.parse_args()

    if not CRITERION.is_dir():
        raise SystemExit(f"error: {CRITERION} does not exist: run `cargo bench` first")
    results = load_criterion()
    if not results:
        raise SystemExit(f"error: no criterion results under {CRITERION}")

    text, ratios = tables(results)
    print(f"<!-- generated by benches/report.py -->\n\nMachine: {machine()}\n")
    print(
        "Medians of criterion's samples; the ratio is pooled / peer: below 1, pooled is "
        "faster.\n"
    )
    print(text)
    if args.memory:
        memory, charted = memory_table(args.memory)
        print(memory)
        ratios["memory (bytes/slot)"] = charted
    args.chart.write_text(chart(ratios))
    print(f"wrote {args.chart}", file=sys.stderr)


if __name__ == "__main__":
    main()
