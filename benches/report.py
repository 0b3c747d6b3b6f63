#!/usr/bin/env python3
"""Criterion's results as markdown tables, one per workload, and benches/chart.svg.

    cargo bench -p pooling-benches && python3 benches/report.py > /tmp/tables.md

Reads target/criterion/<group>/<function>[/<parameter>]/new/{benchmark.json,estimates.json} and
takes each benchmark's median (ns). Each table gives every peer's median and pooling / peer (below
1: pooling is faster); the chart draws those ratios on a log scale. Python 3.11 stdlib only.
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path
from xml.sax.saxutils import escape

ROOT = Path(__file__).resolve().parent.parent
CRITERION = ROOT / "target" / "criterion"
CHART = ROOT / "benches" / "chart.svg"

# The order of rows and bars; peers not listed come after, alphabetically.
PEERS = ["pooling", "pooling_lease", "slab", "slotmap", "dense_slotmap", "thunderdome",
         "sharded_slab", "lifeguard", "object_pool", "box", "seed_scan", "seed_free_list", "vec"]

# (title, criterion group, parameter, divide the median by this for the "per" column, its label)
WORKLOADS = [
    ("churn", "churn", None, 1024, "per step"),
    ("churn, 24-byte object", "churn_24", None, 1024, "per step"),
    ("iterate 10%", "iterate", "10", None, None),
    ("iterate 50%", "iterate", "50", None, None),
    ("iterate 90%", "iterate", "90", None, None),
    ("particle frame", "particles", None, None, None),
    ("heavy reuse", "reuse", None, 16, "per object"),
    ("get", "get", None, 10_000, "per lookup"),
]


def load_criterion() -> dict[tuple[str, str, str | None], float]:
    """(group, function, parameter) -> median in ns."""
    results = {}
    for estimates in CRITERION.glob("**/new/estimates.json"):
        meta = json.loads((estimates.parent / "benchmark.json").read_text())
        median = json.loads(estimates.read_text())["median"]["point_estimate"]
        results[(meta["group_id"], meta["function_id"], meta.get("value_str"))] = float(median)
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


def tables(results) -> tuple[str, dict[str, list[tuple[str, float]]]]:
    """The markdown tables, and every workload's ratios pooling / peer for the chart."""
    out, ratios = [], {}
    for title, group, parameter, per, per_label in WORKLOADS:
        rows = sorted(
            ((f, m) for (g, f, p), m in results.items() if g == group and p == parameter),
            key=lambda row: (PEERS.index(row[0]) if row[0] in PEERS else len(PEERS), row[0]),
        )
        if not rows:
            print(f"warning: no results for {title}", file=sys.stderr)
            continue
        pooled = dict(rows).get("pooling")
        per_head = f" median {per_label} |" if per else ""
        out += [f"### {title}\n", f"| peer | median |{per_head} pooling / peer |",
                "|---|---:|" + ("---:|" if per else "") + "---:|"]
        ratios[title] = []
        for peer, median in rows:
            ratio = pooled / median if pooled is not None else None
            per_cell = f" {format_time(median / per)} |" if per else ""
            out.append(f"| {peer} | {format_time(median)} |{per_cell} {format_ratio(ratio)} |")
            if ratio is not None and not peer.startswith("pooling"):
                ratios[title].append((peer, ratio))
        out.append("")
    return "\n".join(out), ratios


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
    "seed_scan": "#bab0ac",
    "seed_free_list": "#6b6b6b",
    "vec": "#17becf",
}


def chart(ratios: dict[str, list[tuple[str, float]]]) -> str:
    """Horizontal bars of pooling / peer on a log scale, grouped by workload, bars drawn from the
    1.0 line: left of it pooling is faster, right of it the peer is."""
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
        "pooling time / peer time (median), log scale</text>",
        f'<text x="{width / 2}" y="44" text-anchor="middle" fill="#333">'
        "below 1: pooling is faster (bar to the left); above 1: the peer is faster</text>",
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
    results = load_criterion() if CRITERION.is_dir() else {}
    if not results:
        raise SystemExit(f"error: no criterion results under {CRITERION}: run cargo bench first")
    text, ratios = tables(results)
    print(text)
    CHART.write_text(chart(ratios))
    print(f"wrote {CHART}", file=sys.stderr)


if __name__ == "__main__":
    main()
