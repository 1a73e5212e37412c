#!/usr/bin/env bash
# Instructions per run of the native core loop (benches/core_loop.rs) under callgrind: the
# difference of a 500-run and a 1,500-run total, divided by 1,000. Repeatable to a few hundred
# instructions whatever else the machine does, so it settles differences that timings can't:
#   bash bench/tools/core-instructions.sh            # needs valgrind (Debian: apt install valgrind)
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo bench --features bench-core --bench core_loop --no-run --quiet 2>/dev/null
bin=$(cargo bench --features bench-core --bench core_loop --no-run --message-format=json 2>/dev/null |
  node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{for(const l of s.split("\n")){try{const m=JSON.parse(l);if(m.executable&&m.target?.name==="core_loop")console.log(m.executable)}catch{}}})')
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
total() {
  W=0 N=$1 valgrind --tool=callgrind --callgrind-out-file="$out/cg.$1" "$bin" 2>&1 >/dev/null |
    sed -n 's/.*Collected : *\([0-9]*\).*/\1/p'
}
a=$(total 500)
b=$(total 1500)
echo "core loop, scenario 1 (k2t1), native: $(( (b - a) / 1000 )) instructions per run (callgrind)"
