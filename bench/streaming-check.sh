#!/usr/bin/env bash
# The streaming check: replay a 10M-event trace with a 256 MiB heap. Replay keeps only live
# handles, so memory follows live blocks (100k here), not the trace's length. Exit 0 = passed.
# Usage: bench/streaming-check.sh [EVENTS] [LIVE]
set -euo pipefail
ROOT=$(CDPATH= cd -- "$(dirname -- "$0")/.." && pwd)
EVENTS=${1:-10000000}
LIVE=${2:-100000}
[ -f "$ROOT/bench/target/benchmarks.jar" ] || (cd "$ROOT" && mvn -q -B -pl bench -am package -DskipTests)
"$ROOT/vramlab" --help >/dev/null 2>&1 || true    # builds the launcher if needed
echo "replaying $EVENTS events at ~$LIVE live blocks under -Xmx256m ..." >&2
java -cp "$ROOT/bench/target/benchmarks.jar" vramlab.bench.SteadyTrace "$EVENTS" "$LIVE" 7 \
  | VRAMLAB_JAVA_OPTS="-Xmx256m" "$ROOT/vramlab" replay --device 1TiB --csv - \
  | tail -n 1
echo "streaming check passed: $EVENTS events replayed with a 256 MiB heap" >&2
