#!/usr/bin/env bash
# The project's test command: every test of every package, as `go test ./...`
# runs them, with a longer limit per package than go test's ten minutes: the
# server's package (a crash test, a cluster of three nodes on PostgreSQL and
# NATS killed, paused and drained) and the browser client's (headless
# Chromium) each take five to ten minutes on two cores. Extra arguments go to
# go test (-short, -run, -count=1, …).
set -euo pipefail
cd "$(dirname "$0")/.."
exec go test -timeout 25m "$@" ./...
