#!/usr/bin/env bash
# Redirects at a million chains, on SQLite and on PostgreSQL, against the outside baseline of
# bench/redirect.sh measured in the same run: a bare hyper 1.x server answering every GET with a
# fixed 302 (bench/bare302), given the very same wrk script.
#
# For each backend: seeds BENCH_CHAINS chains (1,000,000 by default; generated codes, through
# POST /chains/bulk, 10,000 a request), restarts linkapi with its default configuration (the
# default log level and link cache included) and measures
#   - start-up: from launch to answering /healthz, and RSS then;
#   - "uniform, cold": codes drawn uniformly from every chain, right after the restart, with
#     nothing cached: the miss path;
#   - then BENCH_ROUNDS rounds (2 by default) of
#       cached:  codes drawn uniformly from 10,000 of the chains, all of them cached;
#       uniform: codes drawn uniformly from every chain;
#       zipf:    codes drawn from a Zipf distribution (s = 1.0) over every chain, the popular
#                ones scattered at random among them: what real link traffic looks like;
#     each once the previous load's visits are written, after a pass of the same load (the
#     state a server that has served it for a while is in; the cold run above shows the
#     other end);
#   - RSS after the runs: at their end, and once their visits are written (the visits of the
#     last seconds wait in memory until then).
# Every request is a counted visit (a browser's user agent). Each run prints linkapi's link
# cache hit rate over it (from /metrics), so what was measured is plain: after the cold run the
# cache fills, and a cache that holds every chain answers later uniform runs from memory.
# Printed: requests/s, p99, CPU per request of the linkapi process (PostgreSQL's own CPU is not
# in it) and the part of it its SQLite threads took (writing visits, checkpoints), the hit
# rate, and the ratios uniform/cached and zipf/cached (goals: >= 0.5 and >= 0.9 on SQLite) and
# linkapi/bare; then every run's figures.
#
# The server under test and PostgreSQL are pinned to CPU 0, wrk to CPU 1. The bare server runs
# on that core too, so it runs only once linkapi has written its warm-up's visits.
# Usage: bench/redirect-scale.sh [seconds per run, default 10]
# Env: BENCH_CHAINS (default 1000000), BENCH_ROUNDS (default 2), BENCH_BACKENDS ("sqlite
# postgres" by default), BENCH_CONFIG (extra lines for linkapi.toml, e.g. a cache size),
# BENCH_HISTORY_DAYS (default 0): give every other chain a visit on each of that many days
# before today (its day rows, breakdown days and spans, three visitors, totals), written
# straight into the database while the server is stopped: the counter tables of a
# deployment that has counted for a while, rather than empty ones.
# Needs wrk, taskset, python3 and PostgreSQL's server binaries (installed from Debian's packages
# when missing). Talks only to 127.0.0.1.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/common.sh
secs=${1:-10}
chains=${BENCH_CHAINS:-1000000}
history_days=${BENCH_HISTORY_DAYS:-0}
rounds=${BENCH_ROUNDS:-2}
backends=${BENCH_BACKENDS:-sqlite postgres}
connections=64
key=lk_bench_admin_key_000000000001

if ! command -v wrk >/dev/null || ! command -v taskset >/dev/null; then
  apt-get update -qq && apt-get install -y -qq wrk util-linux >/dev/null
fi
if [[ $backends == *postgres* ]]; then need_postgres; fi
cargo build --release -q -p linkapi-cli -p bare302

scratch=$(mktemp -d)
chmod 755 "$scratch"
server=
bare=
cleanup() {
  kill $server $bare 2>/dev/null || true
  wait 2>/dev/null || true
  stop_postgres "$scratch/pg"
  rm -rf "$scratch"
}
trap cleanup EXIT

bare_port=$(free_port)
taskset -c 0 ./target/release/bare302 "127.0.0.1:$bare_port" &
bare=$!

# The wrk scripts: `init` reads the codes (one per line, in random order), formats each
# code's request once and draws the sequence of requests in advance, so that `request` only
# hands out a string made before the run: a Zipf draw in `request` made wrk, not the server,
# the limit, and so did formatting every request there (a new string a request, and Lua's
# collector then walking a million codes' strings: 6.3 us of wrk's time a Zipf request
# against 2.6 under the cached script, and the bare server 15% slower under Zipf than cached
# for it). LuaJIT's generator starts from the same seed in every run, so each run would ask
# for the codes the run before asked for, in the same order, and find them cached: seeded at
# random.
cat >"$scratch/common.lua" <<'LUA'
wrk.headers["User-Agent"] = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0"
local requests, sequence, next_request = {}, {}, 0
-- Reads up to `limit` codes and formats their requests, then draws 2^21 requests (more than a
-- run sends) with `draw`, which is given the number of codes and answers an index among them.
function prepare(file, limit, draw)
  local urandom = io.open("/dev/urandom", "rb")
  local b1, b2, b3 = urandom:read(3):byte(1, 3)
  urandom:close()
  math.randomseed(b1 * 65536 + b2 * 256 + b3)
  for code in io.lines(file) do
    requests[#requests + 1] = wrk.format("GET", "/" .. code)
    if #requests == limit then break end
  end
  for i = 1, 2097152 do sequence[i] = requests[draw(#requests)] end
end
function request()
  next_request = next_request % #sequence + 1
  return sequence[next_request]
end
LUA
{ cat "$scratch/common.lua"; cat <<'LUA'; } >"$scratch/cached.lua"
function init(args) prepare(args[1], 10000, math.random) end
LUA
{ cat "$scratch/common.lua"; cat <<'LUA'; } >"$scratch/uniform.lua"
function init(args) prepare(args[1], nil, math.random) end
LUA
# Zipf with s = 1 by rejection-inversion (Hoermann and Derflinger, 1996): O(1) a draw. With
# s = 1 the integral of x^-s is log(x), its inverse exp.
{ cat "$scratch/common.lua"; cat <<'LUA'; } >"$scratch/zipf.lua"
local function zipf(n)
  local h_x1, h_n = math.log(1.5) - 1, math.log(n + 0.5)
  local s_val = 2 - math.exp(math.log(2.5) - 0.5)
  while true do
    local u = h_n + math.random() * (h_x1 - h_n)
    local x = math.exp(u)
    local k = math.floor(x + 0.5)
    if k < 1 then k = 1 elseif k > n then k = n end
    if k - x <= s_val or u >= math.log(k + 0.5) - 1 / k then return k end
  end
end
function init(args) prepare(args[1], nil, zipf) end
LUA

cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
# The CPU ticks of PID's SQLite threads (the writer and the checkpointer: "sqlite-*"), so a
# run shows how much of its CPU a request went to writing its visits.
sqlite_ticks() {
  local total=0 task fields
  for task in /proc/"$1"/task/*; do
    fields=$(cat "$task/stat" 2>/dev/null) || continue
    case $fields in
      *"(sqlite-"*) fields=${fields##*) }; set -- $fields; total=$((total + ${12} + ${13})) ;;
    esac
  done
  echo $total
}
rss_mb() { awk '/^VmRSS/ {printf "%.0f", $2 / 1024}' "/proc/$1/status"; }
link_cache() { curl -fs "$base/metrics" | awk '/^linkapi_cache_(hits|misses)_total\{cache="links"\}/ {printf "%s ", $2}'; }
ticks_per_sec=$(getconf CLK_TCK)

# run LABEL PID URL SCRIPT: appends "LABEL rps p99_ms cpu_us_per_request hit_rate
# sqlite_us_per_request" to results (hit rate and SQLite threads only for linkapi).
run() {
  local label=$1 pid=$2 url=$3 script=$4 before after out cache_before cache_after
  local writes_before writes_after
  cache_before=$(link_cache)
  before=$(cpu_ticks "$pid")
  writes_before=$(sqlite_ticks "$pid")
  out=$(taskset -c 1 wrk -t1 -c$connections -d"${secs}s" --latency -s "$scratch/$script.lua" \
    "$url" -- "$scratch/codes")
  after=$(cpu_ticks "$pid")
  writes_after=$(sqlite_ticks "$pid")
  cache_after=$(link_cache)
  python3 - "$label" "$before" "$after" "$ticks_per_sec" "$cache_before" "$cache_after" \
    "$writes_before" "$writes_after" >>"$scratch/results" <<PY
import re, sys
out = """$out"""
label, before, after, hz, cache_before, cache_after, writes_before, writes_after = sys.argv[1:]
before, after, hz = map(float, (before, after, hz))
writes = (float(writes_after) - float(writes_before)) / hz * 1e6
rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
total = int(re.search(r"(\d+) requests in", out).group(1))
m = re.search(r"99%\s+([\d.]+)(us|ms|s)", out)
p99 = float(m.group(1)) * {"us": 0.001, "ms": 1, "s": 1000}[m.group(2)]
errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
if errors:
    sys.exit(f"{label}: {errors.group(1)} responses were not redirects")
hits0, misses0 = map(float, cache_before.split())
hits1, misses1 = map(float, cache_after.split())
looked = (hits1 - hits0) + (misses1 - misses0)
hit_rate = (hits1 - hits0) / looked if looked else 0
print(label, f"{rps:.0f} {p99:.3f} {(after - before) / hz * 1e6 / max(total, 1):.2f} {hit_rate:.3f}",
      f"{writes / max(total, 1):.2f}")
PY
}

# start NAME PORT [flags...]: linkapi serve on CPU 0 with the default configuration but for
# the limits that would refuse the seeding; leaves $server, $base and the start-up time in
# $started. (The port stays the same across a restart: it names the default domain.)
start() {
  local name=$1 port=$2; shift 2
  local t0
  base=http://127.0.0.1:$port
  t0=$(date +%s.%N)
  LINKAPI_INITIAL_API_KEY=$key taskset -c 0 ./target/release/linkapi serve \
    --listen "127.0.0.1:$port" --data-dir "$scratch/$name" --config "$scratch/linkapi.toml" \
    "$@" 2>>"$scratch/$name.log" &
  server=$!
  until curl -fs "$base/healthz" >/dev/null; do
    kill -0 $server 2>/dev/null || { cat "$scratch/$name.log" >&2; exit 1; }
    sleep 0.01
  done
  started=$(python3 -c "import time; print(f'{time.time() - $t0:.2f}')")
}

{
  printf 'rate_limit_per_second = 0\ndaily_create_quota = 100000000\n'
  printf '%s\n' "${BENCH_CONFIG:-}"
} >"$scratch/linkapi.toml"

# seed_history NAME: BENCH_HISTORY_DAYS days of visits of every other chain, straight into
# NAME's database (the server stopped). Days are UTC days, the default calendar's.
seed_history() {
  local today=$(( $(date +%s) / 86400 * 86400 ))
  local breakdown='[[1,"direct",N],[2,"desktop",N],[3,"Linux",N],[4,"Firefox",N]]'
  local days="SELECT $today - k * 86400 AS day FROM history_days"
  local sql="
    INSERT INTO chain_daily_clicks (chain_id, day, clicks, bot_clicks)
    SELECT c.id, d.day, 1, 0 FROM chains c, ($days) d WHERE c.id % 2 = 0 ORDER BY 1, 2;
    INSERT INTO chain_breakdown_days (chain_id, day, data)
    SELECT c.id, d.day, '${breakdown//N/1}' FROM chains c, ($days) d
    WHERE c.id % 2 = 0 ORDER BY 1, 2;
    INSERT INTO chain_breakdown_spans (chain_id, span, data)
    SELECT c.id, s.span, replace('$breakdown', 'N', CAST(s.n AS TEXT))
    FROM chains c, (SELECT day - day % 2592000 AS span, count(*) AS n FROM ($days) d
                    GROUP BY 1) s
    WHERE c.id % 2 = 0 ORDER BY 1, 2;
    INSERT INTO chain_visitors (chain_id, visitor)
    SELECT c.id, VISITOR FROM chains c, (SELECT 1 AS v UNION ALL SELECT 2 UNION ALL SELECT 3) v
    WHERE c.id % 2 = 0 ORDER BY 1, 2;
    INSERT INTO chain_visit_totals (chain_id, clicks, bot_clicks, unique_visitors)
    SELECT c.id, $history_days, 0, 3 FROM chains c WHERE c.id % 2 = 0 ORDER BY 1;"
  echo "$1: seeding $history_days days of visits of every other chain ..."
  case $1 in
    sqlite)
      python3 - "$scratch/$1/linkapi.db" "$history_days" "${sql//VISITOR/randomblob(16)}" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1], isolation_level=None)
db.execute("CREATE TEMP TABLE history_days (k INTEGER)")
db.executemany("INSERT INTO history_days VALUES (?)", [(k,) for k in range(1, int(sys.argv[2]) + 1)])
db.executescript("BEGIN;" + sys.argv[3] + "COMMIT;")
db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
PY
      ;;
    postgres)
      local pg_visitor="decode(md5(c.id || '-' || v.v), 'hex')"
      as_pg "$pgbin/psql" -q -h 127.0.0.1 -p "$pgport" -U postgres -d linkapi -v ON_ERROR_STOP=1 \
        -c "CREATE TEMP TABLE history_days AS SELECT generate_series(1, $history_days) AS k;
            ${sql//VISITOR/$pg_visitor} ANALYZE;"
      ;;
  esac
}

measure() {
  local name=$1 port; shift
  port=$(free_port)
  start "$name" "$port" "$@"
  echo "$name: seeding $chains chains ..."
  python3 - "$base" "$key" "$chains" "$scratch/codes" <<'PY'
import http.client, json, random, sys, time, urllib.parse
base, key, n, out = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
url = urllib.parse.urlsplit(base)
conn = http.client.HTTPConnection(url.hostname, url.port, timeout=600)
codes, t0 = [], time.time()
for first in range(0, n, 10_000):
    chains = [{"target_url": f"https://www.example.com/landing/{i}?utm_source=newsletter"
               f"&utm_medium=email&utm_campaign=spring"} for i in range(first, min(n, first + 10_000))]
    conn.request("POST", "/chains/bulk", json.dumps({"chains": chains}),
                 {"Authorization": f"Bearer {key}", "Content-Type": "application/json"})
    response = conn.getresponse()
    body = json.loads(response.read())
    assert response.status == 200 and body["data"]["failed"] == 0, body
    codes += [r["chain"]["code"] for r in body["data"]["results"]]
random.Random(1).shuffle(codes)
open(out, "w").write("\n".join(codes) + "\n")
print(f"  {n / (time.time() - t0):.0f} chains/s")
PY
  kill $server; wait $server || true
  if (( history_days > 0 )); then seed_history "$name"; fi
  start "$name" "$port" "$@"
  echo "$name start-up $started $(rss_mb $server)" >>"$scratch/results"
  echo "$name: runs ..."
  run "$name uniform-cold" $server "$base" uniform
  for round in $(seq "$rounds"); do
    for work in cached uniform zipf; do
      # The previous load's visits written first: a load's figures are its own, not held
      # back by another's backlog (past half the bound visits wait for the writes).
      drain "$base"
      run "$name $work-warmup" $server "$base" $work
      # And the warm-up's before the bare server's run: the two share CPU 0, and a uniform
      # warm-up's writes took a fifth of the core for seconds, slowing the baseline.
      drain "$base"
      run "bare $work" $bare "http://127.0.0.1:$bare_port" $work
      run "$name $work" $server "$base" $work
    done
  done
  local at_end
  at_end=$(rss_mb $server)
  # The last runs' visits are still being written; RSS once they are, and the memory they
  # took is given back (the flusher does so after a backlog, at most once a minute).
  drain "$base"
  sleep 2
  echo "$name rss $at_end $(rss_mb $server)" >>"$scratch/results"
  kill $server; wait $server || true
  server=
}

for backend in $backends; do
  case $backend in
    sqlite) measure sqlite ;;
    postgres)
      PG_TASKSET="taskset -c 0" start_postgres "$scratch/pg"
      as_pg "$pgbin/createdb" -h 127.0.0.1 -p "$pgport" -U postgres linkapi
      measure postgres --database-url "postgres://postgres@127.0.0.1:$pgport/linkapi"
      ;;
    *) echo "unknown backend $backend" >&2; exit 2 ;;
  esac
done

python3 - "$scratch/results" "$chains" "$secs" <<'PY'
import statistics, sys
rows = [line.split() for line in open(sys.argv[1])]
chains, secs = int(sys.argv[2]), sys.argv[3]
def runs(name, work):
    return [list(map(float, r[2:])) for r in rows if r[0] == name and r[1] == work]
def median(name, work, column):
    return statistics.median(r[column] for r in runs(name, work))
print(f"\n{chains:,} chains, {secs}s a run, 64 connections; server (and PostgreSQL) on CPU 0, "
      "wrk on CPU 1; medians of the rounds")
print(f"{'':22}{'req/s':>9}{'p99 ms':>9}{'CPU us/req':>12}{'of it SQLite':>14}{'cache hits':>12}"
      f"{'x cached':>10}{'x bare':>8}")
for name in [n for n in ("sqlite", "postgres") if runs(n, "cached")]:
    start = runs(name, "start-up")[0]
    cached = median(name, "cached", 0)
    for work in ("uniform-cold", "cached", "uniform", "zipf"):
        rps, p99, cpu, hits, writes = (median(name, work, c) for c in range(5))
        bare = f"{rps / median('bare', work, 0):.2f}" if runs("bare", work) else ""
        print(f"{name + ' ' + work:22}{rps:>9.0f}{p99:>9.3f}{cpu:>12.2f}{writes:>14.2f}"
              f"{hits:>12.1%}{rps / cached:>10.2f}{bare:>8}")
    at_end, written = runs(name, "rss")[0]
    print(f"{name + ' start-up':22}{start[0]:>8.2f}s  RSS {start[1]:.0f} MB at start, "
          f"{at_end:.0f} MB at the end of the runs, {written:.0f} MB once their visits "
          "are written")
print(f"{'bare cached':22}{median('bare', 'cached', 0):>9.0f}")
print("each run (warm-ups included): label, req/s, p99 ms, CPU us/req, cache hits, SQLite us/req")
for r in rows:
    if r[1] not in ("start-up", "rss"):
        print("  " + " ".join(r))
print("goals on SQLite: uniform >= 0.50 x cached, zipf >= 0.90 x cached, RSS < 250 MB, "
      "start-up < 2 s")
PY
