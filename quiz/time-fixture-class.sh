#!/usr/bin/env bash
# Times the 40-submission fixture class (cli's GradingFixturesTest, -Pgrading-fixtures): builds
# what it needs, generates the class (correct, partial, broken per core, looping, exiting,
# copying, forging), grades it with the grader's default bounds (as many submissions at once as
# there are cores) and checks every total. Prints each submission's progress line, the grading's
# wall time and the whole run's. Usage: quiz/time-fixture-class.sh [-o]   (-o: Maven offline)
set -uo pipefail
cd "$(dirname "$0")/.."
mkdir -p target
log=target/fixture-class.log
start=$(date +%s)
mvn -B ${1:-} test -Pgrading-fixtures -pl cli -am -Dtest=GradingFixturesTest \
  -Dsurefire.failIfNoSpecifiedTests=false >"$log" 2>&1
status=$?
end=$(date +%s)
grep -E '^\[[0-9]+/40\]|^graded 40 submissions' "$log"
grep -E 'Tests run:.*GradingFixturesTest|FAIL' "$log" | head -5
echo "whole run (build, generate, grade, check): $((end - start)) s on $(nproc) cores; log: $log"
exit $status
