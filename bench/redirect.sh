#!/usr/bin/env bash
# Redirect throughput of linkapi against an outside baseline measured in the same run: a bare
# hyper 1.x server answering every GET with a fixed 302 (bench/bare302, built from this
# repository). linkapi serves 10,000 chains; wrk asks for random codes among them with a
# browser's user agent, so every request is a counted visit (keyed visitor hash included).
# The server under test is pinned to CPU 0 and wrk to CPU 1; the two servers alternate, three
# rounds each, and the bare server runs only once linkapi has written its pending visits.
# Printed per server: requests/s, p50, p99 and server CPU per request (from /proc), then the
# ratios, then p99 of each at half of linkapi's peak rate (wrk with a 1 ms
# pause per connection, connections chosen to reach about that rate).
#
# Usage: bench/redirect.sh [seconds per run, default 10] [rounds, default 3]
# Needs wrk and taskset (installed from Debian's packages when missing). Talks only to
# 127.0.0.1. Set BENCH_VISITORS=N to spread requests over N client addresses (through the
# trusted-proxy rule), making nearly every visit a new unique visitor to store.
# BENCH_BEFORE=PATH also measures another linkapi binary (an earlier build, say) in the same
# rounds, seeded alike, and prints this build's figures against it: whether a change made
# redirects slower, with the machine's drift cancelled out. linkapi runs
# with its default log level, as a user runs it; BENCH_LOG=warn (any LINKAPI_LOG filter)
# measures another. BENCH_RULES=N gives every chain N redirect rules (at most 20) that a
# visit checks to the end and none of which match (device desktop, as wrk's agent is, and a
# language it never sends), the costliest rules can be.
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-10}
rounds=${2:-3}
connections=${BENCH_CONNECTIONS:-64}
visitors=${BENCH_VISITORS:-1}
port=${LINKAPI_BENCH_PORT:-18181}
bare_port=$((port + 1))
key=lk_bench_admin_key_000000000001
base=http://127.0.0.1:$port
source bench/common.sh

if ! command -v wrk >/dev/null || ! command -v taskset >/dev/null; then
  apt-get update -qq && apt-get install -y -qq wrk util-linux >/dev/null
fi
cargo build --release -q -p linkapi-cli -p bare302

work=$(mktemp -d)
cleanup() {
  kill "${server:-}" "${bare:-}" "${before_server:-}" 2>/dev/null || true
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

# Rate limiting off (this measures the server, not the limiter); loopback is a trusted proxy
# so BENCH_VISITORS can vary the client address.
cat >"$work/linkapi.toml" <<TOML
rate_limit_per_second = 0
daily_create_quota = 1000000
trusted_proxies = ["127.0.0.1"]
TOML
if [ -n "${BENCH_LOG:-}" ]; then export LINKAPI_LOG=$BENCH_LOG; else unset LINKAPI_LOG; fi
echo "linkapi log filter: ${LINKAPI_LOG:-the default (info)}"
echo "redirect rules per chain: ${BENCH_RULES:-0}"
LINKAPI_INITIAL_API_KEY=$key taskset -c 0 ./target/release/linkapi serve \
  --listen 127.0.0.1:$port --data-dir "$work/data" --config "$work/linkapi.toml" \
  2>"$work/server.log" &
server=$!
taskset -c 0 ./target/release/bare302 127.0.0.1:$bare_port &
bare=$!
for _ in $(seq 100); do curl -fs $base/healthz >/dev/null && break; sleep 0.1; done
seed_ports=$port
if [ -n "${BENCH_BEFORE:-}" ]; then
  before_port=$((port + 2))
  LINKAPI_INITIAL_API_KEY=$key taskset -c 0 "$BENCH_BEFORE" serve \
    --listen 127.0.0.1:$before_port --data-dir "$work/before" --config "$work/linkapi.toml" \
    2>"$work/before.log" &
  before_server=$!
  for _ in $(seq 100); do curl -fs http://127.0.0.1:$before_port/healthz >/dev/null && break; sleep 0.1; done
  seed_ports="$port $before_port"
fi

for seed_port in $seed_ports; do
echo "seeding 10,000 chains on port $seed_port ..."
python3 - "$seed_port" "$key" "${BENCH_RULES:-0}" <<'PY'
import http.client, json, sys, threading
port, key, rules = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
def seed(part):
    conn = http.client.HTTPConnection("127.0.0.1", port)
    for i in range(part, 10_000, 4):
        chain = {"target_url": f"https://example.com/{i}", "code": f"b{i:05d}"}
        if rules:
            chain["rules"] = [{"device": "desktop", "language": "x" + chr(97 + n % 26) + chr(97 + n // 26),
                               "target_url": f"https://example.com/{i}/{n}"} for n in range(rules)]
        body = json.dumps(chain)
        conn.request("POST", "/chains", body, {"Authorization": f"Bearer {key}",
                                               "Content-Type": "application/json"})
        response = conn.getresponse()
        response.read()
        assert response.status == 201, response.status
threads = [threading.Thread(target=seed, args=(p,)) for p in range(4)]
for t in threads: t.start()
for t in threads: t.join()
PY
done

random_codes_lua "$work/random.lua" "$visitors"
# wrk paces a connection only when the script has delay(); even a 0 ms one slows it down, so
# the unpaced script has none.
{ cat "$work/random.lua"; echo 'function delay() return 1 end'; } >"$work/paced.lua"

cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
ticks_per_sec=$(getconf CLK_TCK)

# run NAME PID URL SCRIPT CONNECTIONS: prints "rps p50_ms p99_ms cpu_us_per_request".
run() {
  local name=$1 pid=$2 url=$3 script=$4 conns=$5 before after out
  before=$(cpu_ticks "$pid")
  out=$(taskset -c 1 wrk -t1 -c"$conns" -d"${secs}s" --latency -s "$script" "$url")
  after=$(cpu_ticks "$pid")
  python3 - "$before" "$after" "$ticks_per_sec" <<PY
import re, sys
out = """$out"""
before, after, hz = map(float, sys.argv[1:])
rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
total = int(re.search(r"(\d+) requests in", out).group(1))
def ms(label):
    m = re.search(rf"{label}%\s+([\d.]+)(us|ms|s)", out)
    value, unit = float(m.group(1)), m.group(2)
    return value / 1000 if unit == "us" else value * 1000 if unit == "s" else value
errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
if errors:
    sys.exit(f"{errors.group(1)} responses were not redirects")
cpu_us = (after - before) / hz * 1e6 / max(total, 1)
print(f"{rps:.0f} {ms(50):.3f} {ms(99):.3f} {cpu_us:.2f}")
PY
}

# Waits until no linkapi server has visits waiting to be written, so that the next run,
# whichever server it is, has CPU 0 to itself.
quiet() {
  local url
  for url in "$base" ${BENCH_BEFORE:+http://127.0.0.1:$before_port}; do
    drain "$url"
  done
}

results=$work/results
for round in $(seq "$rounds"); do
  echo "round $round/$rounds ..."
  quiet
  echo "bare $(run bare $bare http://127.0.0.1:$bare_port "$work/random.lua" "$connections")" >>"$results"
  # With BENCH_BEFORE, the two builds take turns going first, so neither always meets the
  # machine a few seconds later.
  if [ -n "${BENCH_BEFORE:-}" ] && [ $((round % 2)) = 0 ]; then
    echo "before $(run before $before_server http://127.0.0.1:$before_port "$work/random.lua" "$connections")" >>"$results"
  fi
  echo "linkapi $(run linkapi $server $base "$work/random.lua" "$connections")" >>"$results"
  if [ -n "${BENCH_BEFORE:-}" ] && [ $((round % 2)) = 1 ]; then
    echo "before $(run before $before_server http://127.0.0.1:$before_port "$work/random.lua" "$connections")" >>"$results"
  fi
done

# p99 at about half of linkapi's peak: connections pausing 1 ms between requests.
half=$(awk '$1 == "linkapi" {s += $2; n++} END {printf "%d", s / n / 2}' "$results")
paced_conns=$(( (half + 899) / 900 ))
echo "paced runs at about $half req/s ($paced_conns connections) ..."
quiet
echo "bare-paced $(run bare $bare http://127.0.0.1:$bare_port "$work/paced.lua" "$paced_conns")" >>"$results"
echo "linkapi-paced $(run linkapi $server $base "$work/paced.lua" "$paced_conns")" >>"$results"
if [ -n "${BENCH_BEFORE:-}" ]; then
  echo "before-paced $(run before $before_server http://127.0.0.1:$before_port "$work/paced.lua" "$paced_conns")" >>"$results"
fi

python3 - "$results" "$secs" "$connections" "$visitors" <<'PY'
import statistics, sys
rows = [line.split() for line in open(sys.argv[1])]
secs, conns, visitors = sys.argv[2:]
def runs(name):
    return [list(map(float, r[1:])) for r in rows if r[0] == name]
def median(name, column):
    return statistics.median(r[column] for r in runs(name))
print(f"\nrandom codes over 10,000 chains, {conns} connections, {secs}s per run, "
      f"{visitors} client address(es); server on CPU 0, wrk on CPU 1")
print(f"{'':16}{'req/s':>10}{'p50 ms':>9}{'p99 ms':>9}{'CPU us/req':>12}")
names = ["bare", "linkapi"] + (["before"] if runs("before") else [])
for name in names:
    print(f"{name:16}{median(name, 0):>10.0f}{median(name, 1):>9.3f}{median(name, 2):>9.3f}"
          f"{median(name, 3):>12.2f}")
print(f"each round (req/s): bare {[int(r[0]) for r in runs('bare')]}, "
      f"linkapi {[int(r[0]) for r in runs('linkapi')]}")
print(f"throughput ratio linkapi/bare: {median('linkapi', 0) / median('bare', 0):.2f} "
      f"(goal >= 0.85)")
print(f"CPU per request ratio bare/linkapi: {median('bare', 3) / median('linkapi', 3):.2f}")
for name in [n + "-paced" for n in names]:
    rps, p50, p99, _ = runs(name)[0]
    print(f"{name:16}{rps:>10.0f}{p50:>9.3f}{p99:>9.3f}   (p99 goal for linkapi: < 2 ms)")
if runs("before"):
    print(f"this build against BENCH_BEFORE: throughput {median('linkapi', 0) / median('before', 0):.2f}, "
          f"CPU per request {median('linkapi', 3) / median('before', 3):.2f}; round by round "
          f"{[round(a[0] / b[0], 2) for a, b in zip(runs('linkapi'), runs('before'))]}")
PY
