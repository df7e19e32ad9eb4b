#!/usr/bin/env bash
# Instructions a cached redirect costs, counted by valgrind's callgrind: linkapi against the
# bare hyper 302 server (bench/bare302) given the same load, and against BENCH_BEFORE (another
# linkapi binary, an earlier build say) when set.
#
# Why counts beside bench/redirect.sh's timings: on the development VM rounds of the same
# server vary by 25%, so a change worth 1-3% cannot be seen in them; a count of instructions
# does not vary with the machine's load. What a count misses: time spent without instructions
# (memory stalls) and the kernel's work, which callgrind does not see (on the cached path about
# 60% of the CPU, the same for both servers: one read and one write a request). So the ratio
# here is of the user-space work alone, and a change is confirmed in time by redirect.sh.
#
# Each server runs alone under callgrind with 10,000 chains (as in bench/redirect.sh: random
# codes, a browser's user agent, so every request is a counted visit). wrk warms linkapi's link
# cache, then instructions are counted over SECONDS of the same load. linkapi writes its visits
# once a minute here: under callgrind a server answers about 30 times fewer requests a second,
# so a round of writes a second would weigh 30 times what it does at full speed; the count is
# the request path's own. 16 connections: callgrind runs one thread at a time.
#
# Printed: requests counted and instructions a request for each server, then the ratios.
# Usage: bench/instructions.sh [seconds counted, default 20]
# BENCH_KEEP=DIR copies the callgrind files there (NAME.cg.*), to be read by callgrind_annotate.
# Needs valgrind and wrk (installed from Debian's packages when missing). Talks only to
# 127.0.0.1.
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-20}
key=lk_bench_admin_key_000000000001
source bench/common.sh

if ! command -v valgrind >/dev/null || ! command -v wrk >/dev/null; then
  apt-get update -qq && apt-get install -y -qq valgrind wrk >/dev/null
fi
cargo build --release -q -p linkapi-cli -p bare302

work=$(mktemp -d)
server=
cleanup() {
  kill "${server:-}" 2>/dev/null || true
  wait 2>/dev/null || true
  if [ -n "${BENCH_KEEP:-}" ]; then mkdir -p "$BENCH_KEEP" && cp "$work"/*.cg.* "$BENCH_KEEP"/; fi
  rm -rf "$work"
}
trap cleanup EXIT

cat >"$work/linkapi.toml" <<TOML
rate_limit_per_second = 0
daily_create_quota = 1000000
visit_flush_interval_ms = 60000
TOML
random_codes_lua "$work/random.lua"

# count NAME PORT COMMAND...: starts COMMAND under callgrind (instrumentation off), seeds and
# warms it when it is linkapi, counts SECONDS of load; appends "NAME requests instructions".
count() {
  local name=$1 port=$2; shift 2
  local base=http://127.0.0.1:$port out requests
  LINKAPI_INITIAL_API_KEY=$key valgrind --tool=callgrind --instr-atstart=no \
    --callgrind-out-file="$work/$name.cg" "$@" 2>"$work/$name.log" &
  server=$!
  until curl -s -o /dev/null "$base/"; do
    kill -0 $server 2>/dev/null || { cat "$work/$name.log" >&2; exit 1; }
    sleep 0.2
  done
  if [ "$name" != bare ]; then
    python3 - "$base" "$key" <<'PY'
import http.client, json, sys, urllib.parse
base, key = sys.argv[1], sys.argv[2]
url = urllib.parse.urlsplit(base)
conn = http.client.HTTPConnection(url.hostname, url.port, timeout=600)
chains = [{"target_url": f"https://example.com/{i}", "code": f"b{i:05d}"} for i in range(10_000)]
conn.request("POST", "/chains/bulk", json.dumps({"chains": chains}),
             {"Authorization": f"Bearer {key}", "Content-Type": "application/json"})
response = conn.getresponse()
body = json.loads(response.read())
assert response.status == 200 and body["data"]["failed"] == 0, body
PY
    wrk -t1 -c16 -d20s -s "$work/random.lua" "$base" >/dev/null
  fi
  callgrind_control -i on $server >/dev/null 2>&1
  out=$(wrk -t1 -c16 -d"${secs}s" -s "$work/random.lua" "$base")
  callgrind_control -i off $server >/dev/null 2>&1
  callgrind_control -d $server >/dev/null 2>&1
  kill $server
  wait $server 2>/dev/null || true
  server=
  if grep -q "Non-2xx or 3xx" <<<"$out"; then
    echo "$name: some responses were not redirects" >&2
    exit 1
  fi
  requests=$(awk '/requests in/ {print $1}' <<<"$out")
  echo "$name $requests $(cat "$work/$name".cg.* | awk '/^totals:/ {n += $2} END {print n}')" \
    >>"$work/results"
}

port=$(free_port)
echo "counting bare302 ..."
count bare "$port" ./target/release/bare302 "127.0.0.1:$port"
for build in linkapi ${BENCH_BEFORE:+before}; do
  binary=./target/release/linkapi
  if [ "$build" = before ]; then binary=$BENCH_BEFORE; fi
  port=$(free_port)
  echo "counting $build ..."
  count "$build" "$port" "$binary" serve --listen "127.0.0.1:$port" --data-dir "$work/$build" \
    --config "$work/linkapi.toml"
done

python3 - "$work/results" "$secs" <<'PY'
import sys
rows = {name: (int(n), int(ir)) for name, n, ir in (line.split() for line in open(sys.argv[1]))}
per = {name: ir / n for name, (n, ir) in rows.items()}
print(f"\ncached redirects, 10,000 chains, {sys.argv[2]} s counted under callgrind, user space only")
print(f"{'':10}{'requests':>10}{'instructions a request':>25}")
for name, (n, _) in rows.items():
    print(f"{name:10}{n:>10}{per[name]:>25,.0f}")
print(f"linkapi/bare: {per['linkapi'] / per['bare']:.2f}")
if "before" in per:
    print(f"linkapi/before: {per['linkapi'] / per['before']:.3f}")
PY
