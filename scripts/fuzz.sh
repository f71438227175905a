#!/usr/bin/env bash
# Runs Sortie's fuzz targets, one after the other, each for a while:
#
#   scripts/fuzz.sh [BUDGET] [TARGET...]
#
# BUDGET is a go test -fuzztime: a count of executions (100000x) or a
# duration (10m, 1h). Without one, each target runs its own count below, about
# fifteen seconds of fuzzing on a 2-core machine, as .ci/run runs them. With no
# TARGET, every target runs. A failing input is written to the target's
# testdata/fuzz/ folder, and the script stops there with go test's report: fix
# the bug, keep the input.
#
# Why counts by default: with a duration, Go 1.26's fuzzing coordinator can
# fail a target that found nothing, "context deadline exceeded" at the end of
# the window, when a worker is still busy as the deadline passes
# (go.dev/issue/75804, fixed in Go 1.27). A count has no deadline to race.
set -euo pipefail
cd "$(dirname "$0")/.."

# target package executions: the fuzz targets of the repository, each with a
# count sized to about fifteen seconds here (they differ a hundredfold: a
# created match opens a store, a decoded action is a few microseconds).
targets=(
  "FuzzSocketMessage ./internal/server 40000x"
  "FuzzCreateMatch ./internal/server 2000x"
  "FuzzParseAction ./games/all 100000x"
  "FuzzDecodeTyped ./engine 400000x"
  "FuzzSkipValue ./engine/jsonw 400000x"
)

budget=${1:-}
shift || true
for t in "${targets[@]}"; do
  read -r name pkg count <<<"$t"
  if [ $# -gt 0 ] && [[ ! " $* " == *" $name "* ]]; then
    continue
  fi
  time=${budget:-$count}
  echo "== $name ($pkg) for $time"
  go test -run '^$' -fuzz "^${name}\$" -fuzztime "$time" "$pkg"
done
