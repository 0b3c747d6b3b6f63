#!/usr/bin/env bash
# Instructions per call of each out-of-line function of src/bin/count.rs, as QEMU executes them:
# one instruction per translation block (`-singlestep`), each logged once it runs (`-d exec,nochain`),
# only inside the function's own addresses (`-dfilter ADDR+SIZE`, from `nm`), prologue and
# epilogue included. QEMU emulates no cycle counter, and Debian's QEMU has no TCG plugins.
# Usage: count.sh [TARGET] (default thumbv7m-none-eabi, on lm3s6965evb).
set -euo pipefail
cd "$(dirname "$0")"
target=${1:-thumbv7m-none-eabi}
machine=lm3s6965evb
[ "$target" = thumbv6m-none-eabi ] && machine=microbit
cargo build --release --bin count --target "$target" --quiet
elf=target/$target/release/count
calls=$(sed -n 's/^const CALLS: u32 = \([0-9]*\);$/\1/p' src/bin/count.rs)
for function in $(nm "$elf" | sed -n 's/.* T \(.*_pair\)$/\1/p' | sort); do
    read -r address size < <(nm -S "$elf" | awk -v f="$function" '$4 == f { print $1, $2 }')
    log=$(mktemp)
    # The symbol's address has the Thumb bit set.
    start=$(printf '0x%x' $((0x$address & ~1)))
    timeout 60 qemu-system-arm -machine "$machine" -nographic -semihosting-config enable=on,target=native \
        -icount shift=0 -kernel "$elf" -singlestep -d exec,nochain -dfilter "$start+0x$size" -D "$log" >/dev/null 2>&1
    executed=$(grep -c '^Trace' "$log")
    rm -f "$log"
    printf '%-24s %4d instructions per call (%d in %d calls)\n' "$function" $((executed / calls)) "$executed" "$calls"
done
