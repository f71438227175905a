#!/usr/bin/env bash
# A throwaway cluster on this machine, to try several nodes or to measure
# them (docs/scaling.md, docs/performance.md): a PostgreSQL of its own (the
# system's initdb, run as the user nobody under root, on a Unix socket), a
# NATS server (built from the module the project already uses), and N
# `sortie serve` nodes on 127.0.0.1:8081, 8082, ... with their default
# limits (`sortie loadtest` gives each match a loopback address of its own).
# Everything stops, and is removed, on Ctrl+C.
#
#   scripts/cluster.sh            # three nodes
#   scripts/cluster.sh 2 --log-level warn --pprof   # two nodes, with serve flags
set -euo pipefail
cd "$(dirname "$0")/.."
nodes=${1:-3}
shift || true

dir=$(mktemp -d /tmp/sortie-cluster-XXXXXX)
pids=()   # PostgreSQL and NATS
nodes_=() # the sortie nodes, stopped first (each hands its matches over)
cleanup() {
  for p in "${nodes_[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${nodes_[@]}"; do wait "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$dir"
}
trap cleanup EXIT INT TERM

bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
if [ -z "$bin" ]; then
  echo "cluster.sh: PostgreSQL is not installed (apt-get install postgresql)" >&2
  exit 1
fi
as=()
if [ "$(id -u)" = 0 ]; then
  chown nobody "$dir"
  as=(setpriv --reuid=nobody --regid=nogroup --clear-groups)
fi
"${as[@]}" "$bin/initdb" -D "$dir/pg" -U postgres -A trust --no-sync -E UTF8 --locale=C >/dev/null
"${as[@]}" "$bin/postgres" -D "$dir/pg" -k "$dir" -c listen_addresses= -c max_connections=200 >"$dir/postgres.log" 2>&1 &
pids+=($!)
for _ in $(seq 100); do
  "$bin/pg_isready" -h "$dir" -U postgres >/dev/null 2>&1 && break
  sleep 0.1
done
"$bin/createdb" -h "$dir" -U postgres sortie
store="postgres://postgres@/sortie?host=$dir&sslmode=disable"

go build -o "$dir/sortie" ./cmd/sortie
go build -o "$dir/nats-server" github.com/nats-io/nats-server/v2
"$dir/nats-server" -a 127.0.0.1 -p 4222 >"$dir/nats.log" 2>&1 &
pids+=($!)

urls=()
for i in $(seq 1 "$nodes"); do
  "$dir/sortie" serve --addr "127.0.0.1:808$i" --store "$store" --bus nats://127.0.0.1:4222 --node "node$i" \
    "$@" 2>"$dir/node$i.log" &
  nodes_+=($!)
  urls+=("http://127.0.0.1:808$i")
done
sleep 1
echo "cluster.sh: $nodes nodes on PostgreSQL ($store) and NATS (nats://127.0.0.1:4222); logs in $dir"
echo "cluster.sh: sortie loadtest --server $(IFS=,; echo "${urls[*]}")"
wait
