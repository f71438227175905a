#!/usr/bin/env bash
# Runs Sortie's fuzz targets, one after the other, each for a while:
#
#   scripts/fuzz.sh [DURATION] [TARGET...]
#
# DURATION is a go test -fuzztime (15s, 10m, 1h, or a count like 100000x);
# 15s by default, as .ci/run runs them. With no TARGET, every target runs. A
# failing input is written to the target's testdata/fuzz/ folder, and the
# script stops there with go test's report: fix the bug, keep the input.
set -euo pipefail
cd "$(dirname "$0")/.."

# target package: the fuzz targets of the repository.
targets=(
  "FuzzSocketMessage ./internal/server"
  "FuzzCreateMatch ./internal/server"
  "FuzzParseAction ./games/all"
  "FuzzDecodeTyped ./engine"
)

time=${1:-15s}
shift || true
for t in "${targets[@]}"; do
  read -r name pkg <<<"$t"
  if [ $# -gt 0 ] && [[ ! " $* " == *" $name "* ]]; then
    continue
  fi
  echo "== $name ($pkg) for $time"
  go test -run '^$' -fuzz "^${name}\$" -fuzztime "$time" "$pkg"
done
