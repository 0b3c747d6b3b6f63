#!/usr/bin/env bash
# Instructions per call of each out-of-line `*_pair` function of src/bin/count.rs, as QEMU runs
# them: every instruction from the call's entry to its return, including the functions it calls
# (a critical section's, an out-of-line slow path), prologue and epilogue included. QEMU logs
# each instruction it executes (`-singlestep -d exec,nochain`: one instruction per translation
# block, each logged as it runs); `nm` gives each function's address. QEMU emulates no cycle
# counter, and Debian's QEMU has no TCG plugins.
# Usage: count.sh [TARGET] (default thumbv7m-none-eabi on lm3s6965evb; thumbv6m-none-eabi runs on
# microbit).
set -euo pipefail
cd "$(dirname "$0")"
target=${1:-thumbv7m-none-eabi}
machine=lm3s6965evb
features=()
if [ "$target" = thumbv6m-none-eabi ]; then
    machine=microbit
    features=(--features critical-section)
fi
cargo build --release --bin count --target "$target" "${features[@]}" --quiet
elf=target/$target/release/count
calls=$(sed -n 's/^const CALLS: u32 = \([0-9]*\);$/\1/p' src/bin/count.rs)
log=$(mktemp)
trap 'rm -f "$log"' EXIT
timeout 120 qemu-system-arm -machine "$machine" -nographic -semihosting-config enable=on,target=native \
    -icount shift=0 -kernel "$elf" -singlestep -d exec,nochain -D "$log" >/dev/null 2>&1
nm "$elf" | python3 -c '
import re, sys
calls = int(sys.argv[2])
# Each measured function, by its entry address (the symbol has the Thumb bit set).
entries = {}
for line in sys.stdin:
    address, kind, name = line.split()
    if kind == "T" and name.endswith("_pair"):
        entries[int(address, 16) & ~1] = name
counts = dict.fromkeys(entries.values(), 0)
pcs = [int(m.group(1), 16) for m in map(re.compile(r"^Trace .*?\[[0-9a-f]+/([0-9a-f]+)/").match, open(sys.argv[1])) if m]
i = 0
while i < len(pcs):
    name = entries.get(pcs[i])
    if name is None:
        i += 1
        continue
    # The call was a 4-byte `bl` just before the entry: the call returns after it.
    back = pcs[i - 1] + 4
    j = i
    while pcs[j] != back:
        j += 1
    counts[name] += j - i
    i = j
for name in sorted(counts):
    print(f"{name:<24} {counts[name] // calls:4d} instructions per call ({counts[name]} in {calls} calls)")
' "$log" "$calls"
