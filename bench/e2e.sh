#!/usr/bin/env bash
# End-to-end replay speed, in one sitting: a generated 1M-event trace (2% empty_cache) at about
# 2k and about 100k live blocks, through the launcher (`./vramlab replay`, process start
# included) and through the C++ std::set replay of the same toy policy (bench/cpp, when g++ is
# installed). Prints wall and CPU seconds and events per second for each.
#
# Usage: bench/e2e.sh [EVENTS]            (default 1000000)
#   BEFORE_CP=<classpath>  also times `java -cp $BEFORE_CP vramlab.cli.Main replay` (an older
#                          build of the kit), for before/after figures from the same sitting
# On a shared machine compare the ratios within one run, and the CPU seconds.
set -euo pipefail
ROOT=$(CDPATH= cd -- "$(dirname -- "$0")/.." && pwd)
EVENTS=${1:-1000000}
OUT="$ROOT/bench/target/e2e"
mkdir -p "$OUT"
[ -f "$ROOT/bench/target/benchmarks.jar" ] || (cd "$ROOT" && mvn -q -B -pl bench -am package -DskipTests)
"$ROOT/vramlab" --help >/dev/null 2>&1 || true    # builds the launcher if needed
CXX=""
if command -v g++ >/dev/null 2>&1; then
  g++ -O2 -std=c++17 -o "$OUT/toy_replay" "$ROOT/bench/cpp/toy_replay.cpp" && CXX="$OUT/toy_replay"
else
  echo "(g++ not found: no C++ baseline)" >&2
fi

# run LABEL EVENTS CMD...: times one replay, prints one row
run() {
  local label=$1 n=$2; shift 2
  local t0 t1 cpu0 cpu1
  t0=$(date +%s.%N)
  cpu0=$(awk '{print $14+$15+$16+$17}' /proc/$$/stat 2>/dev/null || echo 0)
  "$@" >"$OUT/last.out" 2>"$OUT/last.err" || { echo "$label failed:"; cat "$OUT/last.err"; return 1; }
  t1=$(date +%s.%N)
  cpu1=$(awk '{print $14+$15+$16+$17}' /proc/$$/stat 2>/dev/null || echo 0)
  awk -v l="$label" -v n="$n" -v a="$t0" -v b="$t1" -v c0="$cpu0" -v c1="$cpu1" \
      -v hz="$(getconf CLK_TCK)" -v lines="$(wc -l <"$OUT/last.out")" 'BEGIN {
        w = b - a; c = (c1 - c0) / hz;
        printf "%-34s %8.2f s wall %8.2f s cpu %12.0f events/s (wall) %12.0f events/s (cpu) %6d lines out\n",
               l, w, c, n / w, (c > 0 ? n / c : 0), lines }'
}

for LIVE in 2000 100000; do
  TRACE="$OUT/trace-$EVENTS-$LIVE.txt"
  [ -f "$TRACE" ] || java -cp "$ROOT/bench/target/benchmarks.jar" vramlab.bench.SteadyTrace \
      "$EVENTS" "$LIVE" 42 20 >"$TRACE"
  echo "== $EVENTS events, ~$LIVE live blocks, 2% empty_cache, --policy toy --device 1TiB"
  [ -n "$CXX" ] && run "C++ std::set (g++ -O2)" "$EVENTS" "$CXX" "$TRACE" 1TiB
  run "./vramlab replay" "$EVENTS" "$ROOT/vramlab" replay --device 1TiB "$TRACE"
  if [ -n "${BEFORE_CP:-}" ]; then
    run "before (BEFORE_CP)" "$EVENTS" java -cp "$BEFORE_CP" vramlab.cli.Main replay --device 1TiB "$TRACE"
  fi
done
