#!/usr/bin/env python3
"""What `#[derive(Pooled)]` adds to a debug build: 100 structs with and without the derive.

    python3 benches/compile_cost.py [--structs 100] [--runs 5] [--dir /tmp/pooling-compile-cost]

Writes two crates that depend on this checkout of `pooling`: `cost_derive`, whose 100 structs
each have `#[derive(Pooled)] #[pool(size = 64)]`, and `cost_plain`, the same structs without
them. Both build once (dependencies warm, in one target directory), then each is timed `--runs`
times as `touch src/lib.rs && cargo build` (debug), and the best of each (wall clock, and CPU
time of cargo and rustc, which a busy machine disturbs less) is printed with the difference:
what the derive costs the crate itself. Python 3.11 stdlib only.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

STRUCT = """{derive}pub struct Object{n} {{
    pub id: u32,
    pub position: [f32; 3],
    pub velocity: [f32; 3],
    pub health: i16,
    pub name: String,
    pub tags: Vec<u16>,
    pub target: Option<u64>,
}}
"""


def write(directory: Path, name: str, structs: int, derive: bool) -> None:
    (directory / "src").mkdir(parents=True, exist_ok=True)
    (directory / "Cargo.toml").write_text(
        f'[package]\nname = "{name}"\nversion = "0.0.0"\nedition = "2024"\npublish = false\n\n'
        f'[dependencies]\npooled = {{ path = "{ROOT}" }}\n\n[workspace]\n'
    )
    attributes = "#[derive(Pooled)]\n#[pool(size = 64)]\n" if derive else ""
    header = "use pooling::Pooled;\n\n" if derive else ""
    body = "\n".join(STRUCT.format(derive=attributes, n=n) for n in range(structs))
    (directory / "src" / "lib.rs").write_text(f"#![allow(dead_code)]\n{header}{body}")


def build(directory: Path, target: Path) -> tuple[float, float]:
    """Wall-clock and CPU (user + system) seconds of one `cargo build` of the touched crate."""
    (directory / "src" / "lib.rs").touch()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(
        ["cargo", "build", "--quiet"],
        cwd=directory,
        env={**os.environ, "CARGO_TARGET_DIR": str(target)},
        check=True,
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--structs", type=int, default=100)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--dir", type=Path, default=Path("/tmp/pooling-compile-cost"))
    args = parser.parse_args()
    crates = {"derive": args.dir / "derive", "plain": args.dir / "plain"}
    write(crates["derive"], "cost_derive", args.structs, derive=True)
    write(crates["plain"], "cost_plain", args.structs, derive=False)
    target = args.dir / "target"
    for directory in crates.values():
        build(directory, target)  # dependencies, once
    best: dict[str, tuple[float, float]] = {}
    for _ in range(args.runs):  # interleaved, so that a busy moment hits both alike
        for kind, directory in crates.items():
            wall, cpu = build(directory, target)
            old = best.get(kind, (wall, cpu))
            best[kind] = (min(old[0], wall), min(old[1], cpu))
    (dw, dc), (pw, pc) = best["derive"], best["plain"]
    print(f"{args.structs} structs, debug build of the crate alone, best of {args.runs}:")
    print("                          wall     cpu")
    print(f"  with #[derive(Pooled)]: {dw:.3f} s  {dc:.3f} s")
    print(f"  without:                {pw:.3f} s  {pc:.3f} s")
    print(f"  the derive adds:        {dw - pw:.3f} s  {dc - pc:.3f} s")


if __name__ == "__main__":
    main()
