#!/usr/bin/env bash
# End-to-end replay speed, in one sitting (issue 16): a generated 1M-event trace (2% empty_cache)
# at about 2k and about 100k live blocks, through the launcher (`./vramlab replay`, process start
# included), through the C++ std::set replay of the same toy policy (bench/cpp, when g++ is
# installed) and through that C++ program ported to Java (FlatToyReplay, under the launcher's JIT
# flags; the two yardsticks must print the same counters), then the launcher's start:
# `./vramlab replay` of a 10-line trace and
# `./vramlab --version`. Prints wall and CPU seconds and events per second for each, and the
# ratios the issue sets goals for.
#
# Issue 38 added workloads whose cost a history-long walk would show: requests of 1-24 MiB (every
# block large, segments given back by empty_cache and cudaMalloc'd anew all run long) at ~2k and
# ~100k live and with 4x the events, and the PyTorch policy with and without expandable segments;
# and a table of the cost per event against the live count and against the history's length.
# Then the shapes of the real snapshots beside the kit (../shared/real-snapshots, or
# VRAMLAB_REAL_SNAPSHOTS=DIR): the sizes of every alloc they recorded, read with the kit's own
# reader (./vramlab replay --csv), drawn at random at ~2k and ~100k live blocks, the toy policy
# beside the yardsticks and PyTorch's alone; without the snapshots that section says so and is skipped.
#
# Usage: bench/e2e.sh [EVENTS]            (default 1000000)
#   SECTIONS="mixed uniform goals policies snapshots start"  the workloads to run (default: all):
#                          mixed sizes at ~2k and ~100k live (issue 16's); 1-24 MiB at ~2k and
#                          ~100k live and 4x EVENTS at ~100k; issue 38's goals from rounds that
#                          run those three back to back (the kit; the C++ replay at ~100k), each ratio
#                          the median of the rounds' own; the PyTorch policy and expandable
#                          segments (the kit alone); the real snapshots' sizes at ~2k and ~100k
#                          live; the launcher's start
#   BEFORE_CP=<classpath>  also times `java -cp $BEFORE_CP vramlab.cli.Main replay` (an older
#                          build of the kit, with the JVM's defaults) beside each, for
#                          before/after figures from the same sitting
#   BEFORE_VRAMLAB=<path>  also times an older checkout's launcher (`$BEFORE_VRAMLAB replay`,
#                          built beforehand), with whatever flags it sets itself
#   STARTS=<n>             runs of each start-up measurement (default 5; the median is shown)
#   REPEAT=<n>             rounds (default 1): each round runs every replay once in turn, and
#                          each row shows the median wall and CPU seconds of its rounds (on a
#                          shared virtual machine one run differs from the next by a third),
#                          then, for the C++ replay, its Java port and each older build,
#                          in how many rounds ./vramlab was faster and the median of the
#                          rounds' ratios
# On a shared machine compare the ratios within one run, and the CPU seconds.
set -euo pipefail
ROOT=$(CDPATH= cd -- "$(dirname -- "$0")/.." && pwd)
EVENTS=${1:-1000000}
STARTS=${STARTS:-5}
REPEAT=${REPEAT:-1}
SECTIONS=${SECTIONS:-mixed uniform goals policies snapshots start}
OUT="$ROOT/bench/target/e2e"
mkdir -p "$OUT"
JAR="$ROOT/bench/target/benchmarks.jar"
if [ ! -f "$JAR" ] || [ -n "$(find "$ROOT/bench/src" -newer "$JAR" -print -quit)" ]; then
  (cd "$ROOT" && mvn -q -B -pl bench -am package -DskipTests)
fi
"$ROOT/vramlab" --version >/dev/null    # builds the launcher (and its class-data archive) if needed
CXX=""
if command -v g++ >/dev/null 2>&1; then
  g++ -O2 -std=c++17 -o "$OUT/toy_replay" "$ROOT/bench/cpp/toy_replay.cpp" && CXX="$OUT/toy_replay"
else
  echo "(g++ not found: no C++ baseline)" >&2
fi
# The C++ replay ported line for line to Java (bench FlatToyReplay: TreeSet for std::set, HashMap
# for unordered_map), run with the launcher's flags for short commands (./vramlab): how fast the
# JVM runs the yardstick's own program, beside the kit with its statistics, driver and GMMU.
JFLAT="java $(cat "$ROOT/cli/src/main/resources/vramlab/cli/fast-jvm-flags")"
case "$(cat /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null)" in
  *"[madvise]"*|*"[always]"*) JFLAT="$JFLAT -XX:+UseTransparentHugePages" ;;
esac
JFLAT="$JFLAT -cp $ROOT/bench/target/benchmarks.jar vramlab.bench.FlatToyReplay"

cpu_now() { awk '{print $14+$15+$16+$17}' /proc/$$/stat 2>/dev/null || echo 0; }

# time_once CMD...: runs it (output to $OUT/last.out) and sets WALL and CPU (seconds)
time_once() {
  local t0 t1 c0 c1
  t0=$(date +%s.%N); c0=$(cpu_now)
  "$@" >"$OUT/last.out" 2>"$OUT/last.err" || { echo "failed: $*"; cat "$OUT/last.err"; return 1; }
  t1=$(date +%s.%N); c1=$(cpu_now)
  read -r WALL CPU < <(awk -v a="$t0" -v b="$t1" -v c0="$c0" -v c1="$c1" -v hz="$(getconf CLK_TCK)" \
      'BEGIN { printf "%.3f %.3f\n", b - a, (c1 - c0) / hz }')
}

# median of the numbers given
median() { echo "$@" | tr ' ' '\n' | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

# row LABEL EVENTS WALL CPU LINES: one row of the table
row() {
  awk -v l="$1" -v n="$2" -v w="$3" -v c="$4" -v lines="$5" 'BEGIN {
        printf "%-34s %7.2f s wall %7.2f s cpu %10.0f events/s (wall) %10.0f events/s (cpu) %5d lines out\n",
               l, w, c, n / w, (c > 0 ? n / c : 0), lines }'
}

# rounds EVENTS: REPEAT rounds, each timing every command of LABELS/CMDS once in turn (so a
# machine that speeds up or slows down during the sitting shifts them all alike), then one row
# each with the median wall and CPU seconds; the medians' wall times are left in MEDIANS.
rounds() {
  local n=$1 r k
  local -a walls cpus lines
  for r in $(seq "$REPEAT"); do
    for k in "${!CMDS[@]}"; do
      eval "time_once ${CMDS[$k]}"
      walls[$k]="${walls[$k]:-} $WALL"; cpus[$k]="${cpus[$k]:-} $CPU"
      lines[$k]=$(wc -l <"$OUT/last.out")
    done
  done
  MEDIANS=(); MEDIANS_CPU=()
  for k in "${!CMDS[@]}"; do
    MEDIANS[$k]=$(median ${walls[$k]})
    MEDIANS_CPU[$k]=$(median ${cpus[$k]})
    row "${LABELS[$k]}" "$n" "${MEDIANS[$k]}" "${MEDIANS_CPU[$k]}" "${lines[$k]}"
  done
  # the kit against the C++ replay and each older build in the same rounds: within a round they
  # ran back to back, so the per-round ratio drifts less with the machine than medians do
  local kit=-1 b
  for k in "${!LABELS[@]}"; do [ "${LABELS[$k]}" = "./vramlab replay" ] && kit=$k; done
  [ "$REPEAT" -gt 1 ] && [ "$kit" -ge 0 ] || return 0
  for b in "${!LABELS[@]}"; do
    case "${LABELS[$b]}" in before*|C++*|Java*) ;; *) continue ;; esac
    local ratios faster
    ratios=$(paste <(echo ${walls[$kit]} | tr ' ' '\n') <(echo ${walls[$b]} | tr ' ' '\n') \
        | awk '{ printf "%.4f\n", ($2 > 0 ? $1 / $2 : 0) }')
    faster=$(echo "$ratios" | awk '$1 < 1 { n++ } END { print n + 0 }')
    printf "  paired with %s: ./vramlab faster in %d of %d rounds; median of the rounds' ./vramlab/that %.2f\n" \
        "${LABELS[$b]}" "$faster" "$REPEAT" "$(median $ratios)"
  done
}

# median_run LABEL CMD...: STARTS runs, prints the median wall and CPU seconds
median_run() {
  local label=$1 walls="" cpus="" i; shift
  for i in $(seq "$STARTS"); do
    time_once "$@"
    walls="$walls $WALL"; cpus="$cpus $CPU"
  done
  local mw mc
  mw=$(echo $walls | tr ' ' '\n' | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
  mc=$(echo $cpus | tr ' ' '\n' | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
  printf "%-30s %7.2f s wall %7.2f s cpu   (median of %d)\n" "$label" "$mw" "$mc" "$STARTS"
  MEDIAN_WALL=$mw
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'; }

echo "bench/e2e.sh at $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?'), $(date -u '+%Y-%m-%d %H:%M UTC'), load $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores"
declare -A KIT CPP PORT KITCPU CPPCPU PORTCPU NEVENTS

# trace EVENTS LIVE SIZES [NAME]: the path of a generated trace (2% empty_cache), made once;
# SIZES as SteadyTrace takes them (mixed, MIN-MAX in MiB, @FILE), NAME in the file's name
trace() {
  local t="$OUT/trace-$1-$2$([ "$3" = mixed ] || echo "-${4:-$3}").txt"
  [ -f "$t" ] || java -cp "$JAR" vramlab.bench.SteadyTrace "$1" "$2" 42 20 "$3" >"$t"
  echo "$t"
}

# workload KEY TITLE EVENTS TRACE [KIT OPTIONS...]: times the C++ replay, its Java port (toy
# policy only) and ./vramlab replay with the options given on one trace, REPEAT rounds; keeps
# each one's median wall and CPU seconds under KEY
workload() {
  local key=$1 title=$2 n=$3 t=$4; shift 4
  local opts="$*" toy=1
  case "$opts" in *pytorch*) toy=0 ;; esac
  echo "== $title$([ "$REPEAT" -gt 1 ] && echo ", medians of $REPEAT rounds")"
  LABELS=(); CMDS=()
  TRACE=$t; KITOPTS=$opts
  if [ $toy = 1 ] && [ -n "$CXX" ]; then
    LABELS+=("C++ std::set (g++ -O2)"); CMDS+=("\"\$CXX\" \"\$TRACE\" 1TiB")
    # the two yardsticks run one program: they must print the same counters
    if ! diff <("$CXX" "$TRACE" 1TiB | sed 's/ (toy policy.*//') <($JFLAT "$TRACE" 1TiB | sed 's/ (toy policy.*//') >/dev/null; then
      echo "error: the C++ replay and its Java port disagree on $TRACE" >&2; exit 1
    fi
  fi
  if [ $toy = 1 ]; then
    LABELS+=("Java port of the C++ (TreeSet)"); CMDS+=("\$JFLAT \"\$TRACE\" 1TiB")
    # and the kit, whose segment addresses come from its driver rather than a bump pointer, so a
    # best-fit tie could break otherwise: said, not an error
    local flat kit
    flat=$($JFLAT "$TRACE" 1TiB | awk '/^peak|^final/ { print $3, $5, $7 }')
    kit=$("$ROOT/vramlab" replay --device 1TiB "$TRACE" | awk '/^peak|^final/ { print $2, $3, $4 }')
    if [ "$flat" = "$kit" ]; then
      echo "(the kit and the yardsticks print the same peak and final requested, allocated, reserved)"
    else
      echo "(note: the kit's peak and final counters differ from the yardsticks': $kit against $flat)"
    fi
  fi
  LABELS+=("./vramlab replay"); CMDS+=("\"\$ROOT/vramlab\" replay \$KITOPTS --device 1TiB \"\$TRACE\"")
  if [ -n "${BEFORE_CP:-}" ]; then
    LABELS+=("before (BEFORE_CP)")
    CMDS+=("java -cp \"\$BEFORE_CP\" vramlab.cli.Main replay \$KITOPTS --device 1TiB \"\$TRACE\"")
  fi
  if [ -n "${BEFORE_VRAMLAB:-}" ]; then
    LABELS+=("before (BEFORE_VRAMLAB)"); CMDS+=("\"\$BEFORE_VRAMLAB\" replay \$KITOPTS --device 1TiB \"\$TRACE\"")
  fi
  rounds "$n"
  NEVENTS[$key]=$n
  local k
  for k in "${!LABELS[@]}"; do
    case "${LABELS[$k]}" in
      "C++ std::set (g++ -O2)") CPP[$key]=${MEDIANS[$k]}; CPPCPU[$key]=${MEDIANS_CPU[$k]} ;;
      "Java port of the C++ (TreeSet)") PORT[$key]=${MEDIANS[$k]}; PORTCPU[$key]=${MEDIANS_CPU[$k]} ;;
      "./vramlab replay") KIT[$key]=${MEDIANS[$k]}; KITCPU[$key]=${MEDIANS_CPU[$k]} ;;
    esac
  done
}

# Issue 16's workload: the mixed sizes of SteadyTrace (mostly small, some large, rare huge)
if [[ " $SECTIONS " == *" mixed "* ]]; then
  for LIVE in 2000 100000; do
    workload "mixed-$LIVE" "$EVENTS events, mixed sizes, ~$LIVE live blocks, 2% empty_cache, --policy toy --device 1TiB" \
        "$EVENTS" "$(trace "$EVENTS" "$LIVE" mixed)"
  done
fi
# Issue 38's: requests of 1-24 MiB (every one a large-pool block, most segments 20 MiB), so
# empty_cache gives back whole segments and new ones are cudaMalloc'd all run long; at ~100k
# live the 1 TiB card is full (tens of thousands of segments, many OOMs); then the same at 4x
# the history, and under PyTorch's policy, with and without expandable segments
if [[ " $SECTIONS " == *" uniform "* ]]; then
  for LIVE in 2000 100000; do
    workload "u-$LIVE" "$EVENTS events, 1-24 MiB, ~$LIVE live blocks, 2% empty_cache, --policy toy --device 1TiB" \
        "$EVENTS" "$(trace "$EVENTS" "$LIVE" 1-24)"
  done
  workload "u-long" "$((4 * EVENTS)) events, 1-24 MiB, ~100000 live blocks, 2% empty_cache, --policy toy --device 1TiB" \
      "$((4 * EVENTS))" "$(trace "$((4 * EVENTS))" 100000 1-24)"
fi
# The goals' own rounds: the ratios above divide medians taken minutes apart, and on a shared
# virtual machine a whole section can run a third slower than the next. Here each round runs the
# kit on the ~2k, the ~100k and the 4x trace back to back, and the C++ replay on the ~100k one (the
# only C++ figure a goal divides by), and each ratio is the median of the rounds' own ratios
# (rounds: REPEAT, at least 3).
if [[ " $SECTIONS " == *" goals "* ]]; then
  G2=$(trace "$EVENTS" 2000 1-24); G100=$(trace "$EVENTS" 100000 1-24); GLONG=$(trace "$((4 * EVENTS))" 100000 1-24)
  GROUNDS=$(( REPEAT < 3 ? 3 : REPEAT ))
  echo "== the goals, paired within each of $GROUNDS rounds (1-24 MiB, --policy toy --device 1TiB)"
  declare -a G_RATIOS_LIVE G_RATIOS_CPP G_RATIOS_LONG G_RATIOS_LIVE_CPU G_RATIOS_CPP_CPU G_RATIOS_LONG_CPU
  for r in $(seq "$GROUNDS"); do
    declare -A GW GC
    for t in 2k 100k long; do
      case $t in 2k) tr=$G2 ;; 100k) tr=$G100 ;; long) tr=$GLONG ;; esac
      if [ -n "$CXX" ] && [ "$t" = 100k ]; then time_once "$CXX" "$tr" 1TiB; GW[cpp-$t]=$WALL; GC[cpp-$t]=$CPU; fi
      time_once "$ROOT/vramlab" replay --policy toy --device 1TiB "$tr"; GW[kit-$t]=$WALL; GC[kit-$t]=$CPU
    done
    G_RATIOS_LIVE+=("$(ratio "${GW[kit-100k]}" "${GW[kit-2k]}")"); G_RATIOS_LIVE_CPU+=("$(ratio "${GC[kit-100k]}" "${GC[kit-2k]}")")
    G_RATIOS_LONG+=("$(ratio "${GW[kit-long]}" "${GW[kit-100k]}")"); G_RATIOS_LONG_CPU+=("$(ratio "${GC[kit-long]}" "${GC[kit-100k]}")")
    if [ -n "$CXX" ]; then
      G_RATIOS_CPP+=("$(ratio "${GW[kit-100k]}" "${GW[cpp-100k]}")"); G_RATIOS_CPP_CPU+=("$(ratio "${GC[kit-100k]}" "${GC[cpp-100k]}")")
    fi
    printf "round %d: seconds wall (CPU)  ~2k %s (%s)  ~100k %s (%s)  4x %s (%s)%s\n" "$r" \
        "${GW[kit-2k]}" "${GC[kit-2k]}" "${GW[kit-100k]}" "${GC[kit-100k]}" "${GW[kit-long]}" "${GC[kit-long]}" \
        "$([ -n "$CXX" ] && echo "; C++ ~100k ${GW[cpp-100k]} (${GC[cpp-100k]})")"
    unset GW GC
  done
  printf "%-46s %5s (%5s)   %s\n" "./vramlab, ~100k live / ~2k live" "$(median "${G_RATIOS_LIVE[@]}")" \
      "$(median "${G_RATIOS_LIVE_CPU[@]}")" "(goal: 1.50 or less; each round's: ${G_RATIOS_LIVE[*]})"
  printf "%-46s %5s (%5s)   %s\n" "./vramlab, 4x the events / 1x (~100k live)" "$(median "${G_RATIOS_LONG[@]}")" \
      "$(median "${G_RATIOS_LONG_CPU[@]}")" "(goal: 4.40 or less; each round's: ${G_RATIOS_LONG[*]})"
  if [ -n "$CXX" ]; then
    printf "%-46s %5s (%5s)   %s\n" "./vramlab / C++ at ~100k live" "$(median "${G_RATIOS_CPP[@]}")" \
        "$(median "${G_RATIOS_CPP_CPU[@]}")" "(goal: 1.00 or less; each round's: ${G_RATIOS_CPP[*]})"
  fi
fi
if [[ " $SECTIONS " == *" policies "* ]]; then
  workload "u-pytorch" "$EVENTS events, 1-24 MiB, ~100000 live, --policy pytorch (the kit alone: the yardsticks are the toy's)" \
      "$EVENTS" "$(trace "$EVENTS" 100000 1-24)" --policy pytorch
  workload "u-expandable" "the same, --alloc-conf expandable_segments:True" \
      "$EVENTS" "$(trace "$EVENTS" 100000 1-24)" --policy pytorch --alloc-conf expandable_segments:True
  workload "m-expandable" "$EVENTS events, mixed sizes, ~100000 live, --policy pytorch --alloc-conf expandable_segments:True" \
      "$EVENTS" "$(trace "$EVENTS" 100000 mixed)" --policy pytorch --alloc-conf expandable_segments:True
fi
# The real snapshots' shape: the size of every alloc in them (each device's trace, every file),
# drawn at random; at ~100k live they ask for more than the 1 TiB card (their mean is tens of
# MiB), so that replay runs full and OOMs, as the 1-24 MiB one does
# snapshot_sizes FILE: the bytes of each alloc in a snapshot's trace, every device's
snapshot_sizes() {
  local out devs d
  if out=$("$ROOT/vramlab" replay --csv "$1" 2>"$OUT/sizes.err"); then
    echo "$out" | awk -F, '$2 == "alloc" { print $4 }'
  else    # several devices: --csv replays one, named by --device-index
    devs=$(sed -n 's/.*holds devices \([0-9, ]*\):.*/\1/p' "$OUT/sizes.err" | tr -d ',')
    [ -n "$devs" ] || { cat "$OUT/sizes.err" >&2; return 1; }
    for d in $devs; do
      "$ROOT/vramlab" replay --csv --device-index "$d" "$1" | awk -F, '$2 == "alloc" { print $4 }'
    done
  fi
}
if [[ " $SECTIONS " == *" snapshots "* ]]; then
  SNAPS=${VRAMLAB_REAL_SNAPSHOTS:-$ROOT/../shared/real-snapshots}/snapshots
  if [ -d "$SNAPS" ] && [ -n "$(ls "$SNAPS")" ]; then
    SIZES="$OUT/snapshot-sizes.txt"
    if [ ! -s "$SIZES" ]; then
      for f in "$SNAPS"/*; do snapshot_sizes "$f"; done >"$SIZES.tmp" && mv "$SIZES.tmp" "$SIZES"
    fi
    echo "(the real snapshots' shape: $(wc -l <"$SIZES") alloc sizes from $(ls "$SNAPS" | wc -l) files in $SNAPS)"
    for LIVE in 2000 100000; do
      workload "s-$LIVE" "$EVENTS events, the real snapshots' sizes, ~$LIVE live blocks, 2% empty_cache, --policy toy --device 1TiB" \
          "$EVENTS" "$(trace "$EVENTS" "$LIVE" "@$SIZES" snapshots)"
    done
    workload "s-pytorch" "the same at ~100000 live, --policy pytorch (the kit alone)" \
        "$EVENTS" "$(trace "$EVENTS" 100000 "@$SIZES" snapshots)" --policy pytorch
  else
    echo "== the real snapshots' shape: skipped, no snapshots in $SNAPS (VRAMLAB_REAL_SNAPSHOTS=DIR names the folder)"
  fi
fi

if [[ " $SECTIONS " == *" start "* ]]; then
  echo "== start-up: a 10-line trace (~2k-live trace's first lines) through the launcher"
  head -n 10 "$(trace "$EVENTS" 2000 mixed)" >"$OUT/trace-10.txt"
  median_run "./vramlab replay (10 lines)" "$ROOT/vramlab" replay "$OUT/trace-10.txt"
  START=$MEDIAN_WALL
  median_run "./vramlab --version" "$ROOT/vramlab" --version
  if [ -n "${BEFORE_CP:-}" ]; then
    median_run "before: replay (10 lines)" java -cp "$BEFORE_CP" vramlab.cli.Main replay "$OUT/trace-10.txt"
  fi
  if [ -n "${BEFORE_VRAMLAB:-}" ]; then
    median_run "before launcher: 10 lines" "$BEFORE_VRAMLAB" replay "$OUT/trace-10.txt"
  fi

fi

# per_event KEY ARRAY: microseconds per event of ARRAY[KEY] (wall or CPU seconds)
per_event() {
  local -n a=$2
  [ -n "${a[$1]:-}" ] && awk -v s="${a[$1]}" -v n="${NEVENTS[$1]}" 'BEGIN { printf "%.2f", s * 1e6 / n }' || echo "-"
}
echo "== per-event cost, microseconds (wall / CPU), and how it grows"
printf "%-14s %9s %15s %15s %15s\n" "workload" "events" "C++" "Java port" "./vramlab"
for key in mixed-2000 mixed-100000 u-2000 u-100000 u-long u-pytorch u-expandable m-expandable s-2000 s-100000 s-pytorch; do
  [ -n "${KIT[$key]:-}" ] || continue
  printf "%-14s %9d %15s %15s %15s\n" "$key" "${NEVENTS[$key]}" \
      "$(per_event "$key" CPP) / $(per_event "$key" CPPCPU)" "$(per_event "$key" PORT) / $(per_event "$key" PORTCPU)" \
      "$(per_event "$key" KIT) / $(per_event "$key" KITCPU)"
done
echo "== the goals (wall-clock ratios from this run; CPU seconds' ratios in brackets)"
# goal TEXT A_KEY ARRAY_A B_KEY ARRAY_B [GOAL]: the ratio of A to B, wall and CPU
goal() {
  local -n wa=$3 wb=$5
  local -n ca=${3}CPU cb=${5}CPU
  [ -n "${wa[$2]:-}" ] && [ -n "${wb[$4]:-}" ] || return 0
  printf "%-46s %5s (%5s)   %s\n" "$1" "$(ratio "${wa[$2]}" "${wb[$4]}")" "$(ratio "${ca[$2]}" "${cb[$4]}")" "${6:-}"
}
for W in mixed u s; do
  goal "$W: ./vramlab / C++ at ~2k live" "$W-2000" KIT "$W-2000" CPP
  goal "$W: ./vramlab / C++ at ~100k live" "$W-100000" KIT "$W-100000" CPP "(goal: 1.00 or less)"
  goal "$W: ./vramlab, ~100k live / ~2k live" "$W-100000" KIT "$W-2000" KIT "(goal: 1.50 or less)"
  goal "$W: C++, ~100k live / ~2k live" "$W-100000" CPP "$W-2000" CPP
done
goal "u: ./vramlab, 4x the events / 1x (~100k live)" u-long KIT u-100000 KIT "(goal: 4.40 or less)"
goal "u: C++, 4x the events / 1x (~100k live)" u-long CPP u-100000 CPP
goal "u: ./vramlab / C++, 4x the events" u-long KIT u-long CPP
[ -n "${START:-}" ] && echo "./vramlab replay of 10 lines: ${START} s wall   (goal: well under a second)"
exit 0
