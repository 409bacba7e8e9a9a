#!/usr/bin/env bash
# Gradescope image set-up, run once when the autograder's image is built, in the folder the zip
# was unpacked into (/autograder/source). Make the zip with
#   VRAMLAB_SALT_FILE=salt.txt ./vramlab release --gradescope autograder.zip
# which puts this script and run_autograder at its root beside salt.txt and the kit's sources
# for grading only (see quiz/README.adoc, "Gradescope").
# A JDK 17+, Maven and python3 (installed when missing), then only what grading builds: the
# launcher and the modules it needs (the reference cores, the chapters' graded tests and quiz
# questions, the harness), tests compiled, not run. The benchmarks, the site, the playgrounds
# and the decks are not in the zip and never built here.
set -euo pipefail
cd "$(dirname "$0")"
java_ok() { command -v java >/dev/null 2>&1 && java -version 2>&1 | grep -Eq 'version "(1[7-9]|[2-9][0-9])'; }
if ! java_ok || ! command -v mvn >/dev/null 2>&1 || ! command -v python3 >/dev/null 2>&1; then
  apt-get update -q
  apt-get install -y -q openjdk-17-jdk-headless maven python3
fi
mvn -q -B -DskipTests package -pl cli -am
