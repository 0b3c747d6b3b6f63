#!/usr/bin/env python3
"""Checks pooling's instruction counts under callgrind against benches/budgets.toml.

    cargo bench -p pooling-benches --bench callgrind -- --output-format=json > target/callgrind.jsonl
    python3 benches/budget.py target/callgrind.jsonl

Each line of the input is gungraun's JSON summary of one benchmark (function `churn`, id
`pooling`...). Every case has a baseline `<peer>_base` that builds the same container and runs no
operation; the figure per operation is (Ir - Ir of the baseline) / operations. Prints the table
of every peer's figures and exits 1 if pooling exceeds a budget, or if a lease through a fresh
lender takes more than its budget's times a create and release (`lease`). Python 3.11 stdlib
only.
"""

from __future__ import annotations

import json
import sys
import tomllib
from pathlib import Path

BUDGETS = Path(__file__).resolve().parent / "budgets.toml"
PEERS = ["pooling", "slab", "slotmap", "dense_slotmap"]
# benchmark function -> (operations per run, what one operation is); see benches/callgrind.rs.
WORKLOADS = {
    "churn": (1024, "step"),
    "churn_24": (1024, "step"),
    "get": (10_000, "lookup"),
    "iterate_10": (1_000, "live object"),
    "iterate_50": (5_000, "live object"),
    "iterate_90": (9_000, "live object"),
    "iterate_keyed_50": (5_000, "live object"),
    "frame": (1, "frame"),
    "reuse": (16, "object"),
}
# Operations of the `lease` case, which budgets.toml ties to create and release.
LEASES = 1024


def instructions(path: Path) -> dict[tuple[str, str], int]:
    """(function, id) -> total instructions (Ir) of that benchmark."""
    counts = {}
    for line in path.read_text().splitlines():
        if not line.startswith("{"):
            continue
        summary = json.loads(line)
        total = summary["profiles"][0]["data"]["total"]["metrics"]["Ir"]["values"]["new"]
        counts[(summary["function_name"], summary["id"])] = total
    return counts


def main() -> int:
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    counts = instructions(Path(sys.argv[1]))
    budgets = tomllib.loads(BUDGETS.read_text())
    per: dict[tuple[str, str], float] = {}
    print("| workload | per | " + " | ".join(PEERS) + " | pooling's budget |")
    print("|---|---|" + "---:|" * (len(PEERS) + 1))
    for workload, (operations, unit) in WORKLOADS.items():
        cells = []
        for peer in PEERS:
            try:
                full, base = counts[(workload, peer)], counts[(workload, f"{peer}_base")]
            except KeyError as missing:
                raise SystemExit(f"error: no result for {missing} in {sys.argv[1]}") from None
            per[(workload, peer)] = (full - base) / operations
            cells.append(f"{per[(workload, peer)]:.2f}")
        budget = budgets["pooling"][workload]
        print(f"| {workload} | {unit} | " + " | ".join(cells) + f" | {budget} |")

    failures = [
        f"{workload}: pooling takes {per[(workload, 'pooling')]:.2f} instructions per "
        f"{WORKLOADS[workload][1]}, over its budget of {budget}"
        for workload, budget in budgets["pooling"].items()
        if per[(workload, "pooling")] > budget
    ]
    allowed = budgets["relative"]["get_over_slotmap"]
    over = per[("get", "pooling")] - per[("get", "slotmap")]
    if over > allowed:
        failures.append(
            f"get: pooling takes {over:.2f} instructions per lookup more than slotmap, "
            f"over the {allowed} allowed"
        )
    # A lease and its give-back through a fresh lender against a create and a release, on one
    # pool in the same run (benches/callgrind.rs, `lease`).
    lease, create_release = (
        (counts[("lease", id)] - counts[("lease", f"{id}_base")]) / LEASES
        for id in ("pooling", "create_release")
    )
    ratio = lease / create_release
    allowed = budgets["relative"]["lease_over_create_release"]
    print(
        f"\nlease through a fresh lender: {lease:.2f} instructions, "
        f"{ratio:.2f} x create and release ({create_release:.2f}); allowed {allowed} x"
    )
    if ratio > allowed:
        failures.append(
            f"lease: {ratio:.2f} x create and release, over the {allowed} x allowed"
        )
    for failure in failures:
        print(f"budget exceeded: {failure}", file=sys.stderr)
    if not failures:
        print(f"\nevery budget of {BUDGETS.name} met", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
