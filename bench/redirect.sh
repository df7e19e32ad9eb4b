#!/usr/bin/env bash
# Redirect throughput against two baselines measured in the same run, on this machine:
#   - GET /healthz: the server's floor (routing, envelope, no store, no cache)
#   - GET /chains/{id}: an authenticated API read that goes to SQLite
# A redirect hit should sit near the floor and well above the database read.
#
# Usage: bench/redirect.sh [seconds per run, default 10]
# Needs wrk (installed from Debian's packages when missing). Talks only to 127.0.0.1.
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-10}
port=${LINKAPI_BENCH_PORT:-18181}
key=lk_bench_admin_key_000000000001
base=http://127.0.0.1:$port

if ! command -v wrk >/dev/null; then
  apt-get update -qq && apt-get install -y -qq wrk >/dev/null
fi
cargo build --release -q -p linkapi-cli

data=$(mktemp -d)
config=$data/linkapi.toml
# Rate limiting off: this measures the server, not the limiter.
printf 'rate_limit_per_second = 0\n' >"$config"
LINKAPI_INITIAL_API_KEY=$key LINKAPI_LOG=warn ./target/release/linkapi serve \
  --listen 127.0.0.1:$port --data-dir "$data/data" --config "$config" 2>"$data/server.log" &
server=$!
trap 'kill $server 2>/dev/null; wait $server 2>/dev/null; rm -rf "$data"' EXIT
for _ in $(seq 50); do curl -fs $base/healthz >/dev/null && break; sleep 0.1; done

id=$(curl -fs -X POST $base/chains -H "Authorization: Bearer $key" -H 'Content-Type: application/json' \
  -d '{"target_url":"https://example.com/bench","code":"bench"}' | python3 -c 'import sys,json; print(json.load(sys.stdin)["data"]["id"])')

rps() { # url [header]
  local args=(-t2 -c64 -d"${secs}s" --latency)
  [ $# -gt 1 ] && args+=(-H "$2")
  wrk "${args[@]}" "$1" | awk '/Requests\/sec/ {print $2}'
}

health=$(rps $base/healthz)
read_api=$(rps $base/chains/$id "Authorization: Bearer $key")
redirect=$(rps $base/bench)

printf '%-28s %12s req/s\n' "GET /healthz (floor)" "$health" "GET /chains/{id} (SQLite)" "$read_api" "GET /{code} (redirect)" "$redirect"
python3 - "$health" "$read_api" "$redirect" <<'PY'
import sys
health, read_api, redirect = map(float, sys.argv[1:])
print(f"redirect / floor:         {redirect / health:.2f}x")
print(f"redirect / database read: {redirect / read_api:.2f}x")
PY
