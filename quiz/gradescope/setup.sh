#!/usr/bin/env bash
# Gradescope image set-up: a JDK and Maven, then the kit built once (tests compiled, not run),
# so run_autograder starts grading at once. Zip this folder's two scripts at the root of the
# autograder zip together with the kit's files and salt.txt (see quiz/README.adoc).
set -euo pipefail
apt-get update -q
apt-get install -y -q openjdk-17-jdk-headless maven python3
cd /autograder/source
mvn -q -B -DskipTests package
