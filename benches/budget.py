#!/usr/bin/env python3
"""Checks pooling's instruction counts under callgrind against benches/budgets.toml.

    cargo bench -p pooling-benches --bench callgrind -- --output-format=json > target/callgrind.jsonl
    python3 benches/budget.py target/callgrind.jsonl

Each line of the input is gungraun's JSON summary of one benchmark (function `churn`, id
`pooling`...). Every case has a baseline `<peer>_base` that builds the same container and runs no
operation; the figure per operation is (Ir - Ir of the baseline) / operations. Every budget ties
pooling's figure to a peer's from the same run: pooling may take at most `over` instructions per
operation more than that peer (a negative `over`: at least that many fewer), so that a change of
compiler or code layout that moves every peer alike moves the budget with them; and a lease
through a fresh lender at most `over_create_release.lease` times a create and a release of the
same pool, a column kernel over `groups_mut` at most `over_soa.kernel_90` times soa_derive's,
and a burst of `create_many` at most `over_push.burst` times as many `Vec::push`es. Prints the table of every peer's figures and exits 1 if pooling exceeds a budget.
Python 3.11 stdlib only.
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
# Live objects of the `kernel_90` case (of 10,000 slots), which budgets.toml ties to soa_derive
# holding them.
KERNEL_LIVE = 9_000
# Objects of the `burst` case, which budgets.toml ties to `Vec::push`.
BURST = 2_000


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
    table = tomllib.loads(BUDGETS.read_text())
    budgets = table["over_peer"]
    missing = sorted(set(WORKLOADS) - set(budgets))
    if missing:
        raise SystemExit(f"error: no budget for {', '.join(missing)} in {BUDGETS.name}")
    per: dict[tuple[str, str], float] = {}
    print("| workload | per | " + " | ".join(PEERS) + " | pooling's budget | over the peer |")
    print("|---|---|" + "---:|" * (len(PEERS) + 2))
    failures = []
    for workload, (operations, unit) in WORKLOADS.items():
        for peer in PEERS:
            try:
                full, base = counts[(workload, peer)], counts[(workload, f"{peer}_base")]
            except KeyError as missing_case:
                raise SystemExit(f"error: no result for {missing_case} in {sys.argv[1]}") from None
            per[(workload, peer)] = (full - base) / operations
        peer, allowed = budgets[workload]["peer"], budgets[workload]["over"]
        over = per[(workload, "pooling")] - per[(workload, peer)]
        cells = " | ".join(f"{per[(workload, p)]:.2f}" for p in PEERS)
        print(f"| {workload} | {unit} | {cells} | {peer} {allowed:+} | {over:+.2f} |")
        if over > allowed:
            failures.append(
                f"{workload}: pooling takes {per[(workload, 'pooling')]:.2f} instructions per "
                f"{unit}, {over:+.2f} against {peer}'s {per[(workload, peer)]:.2f}, over the "
                f"{allowed:+} allowed"
            )
    def ratio(function: str, case: str, base: str, operations: int) -> tuple[float, float, float]:
        """Instructions per operation of `case` and of `base` in `function`, and their ratio."""
        a, b = (
            (counts[(function, c)] - counts[(function, f"{c}_base")]) / operations
            for c in (case, base)
        )
        return a, b, a / b

    # A lease and its give-back through a fresh lender against a create and a release, on one
    # pool in the same run (benches/callgrind.rs, `lease`).
    lease, create_release, times = ratio("lease", "pooling", "create_release", LEASES)
    allowed = table["over_create_release"]["lease"]
    print(
        f"\nlease through a fresh lender: {lease:.2f} instructions, "
        f"{times:.2f} x create and release ({create_release:.2f}); allowed {allowed} x"
    )
    if times > allowed:
        failures.append(f"lease: {times:.2f} x create and release, over the {allowed} x allowed")
    # A column pool's kernel over `groups_mut` at 90 % live against soa_derive holding the live
    # objects (benches/callgrind.rs, `kernel_90`).
    groups, soa, times = ratio("kernel_90", "groups", "soa", KERNEL_LIVE)
    allowed = table["over_soa"]["kernel_90"]
    print(
        f"a column kernel over groups_mut at 90 % live: {groups:.2f} instructions a live object, "
        f"{times:.2f} x soa_derive's ({soa:.2f}); allowed {allowed} x"
    )
    if times > allowed:
        failures.append(f"kernel_90: {times:.2f} x soa_derive, over the {allowed} x allowed")
    # A burst of `create_many` into an empty pool against as many `Vec::push`es of the same
    # objects (benches/callgrind.rs, `burst`); with each handle recorded, printed only.
    many, push, times = ratio("burst", "create_many", "vec_push", BURST)
    handles, _, with_handle = ratio("burst", "with_handle", "vec_push", BURST)
    allowed = table["over_push"]["burst"]
    print(
        f"a burst of create_many: {many:.2f} instructions an object, {times:.2f} x Vec::push's "
        f"({push:.2f}); allowed {allowed} x; recording each handle: {handles:.2f}, "
        f"{with_handle:.2f} x"
    )
    if times > allowed:
        failures.append(f"burst: {times:.2f} x Vec::push, over the {allowed} x allowed")
    for failure in failures:
        print(f"budget exceeded: {failure}", file=sys.stderr)
    if not failures:
        print(f"\nevery budget of {BUDGETS.name} met", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
