#!/usr/bin/env bash
# Durable chain creation, on SQLite, on one PostgreSQL instance and on two, side by side, against
# an outside baseline measured in the same run: PostgreSQL itself doing durable single-row
# INSERTs (pgbench, 64 clients, a commit each, fsync on). Every created chain is acknowledged
# only after its commit reached the disk, on every backend.
#
# For each deployment:
#   - single creates (POST /chains), 64 clients of one user, two consecutive runs (the second
#     starts with the first run's chains counted against the day, so a rate that fell as a
#     user's chains of the day grow would show);
#   - single creates, 64 clients spread over 64 users;
#   - bulk creates (POST /chains/bulk), 10,000 chains a request, one request at a time: the
#     seconds one request takes (best and worst of 5).
# With two instances the 64 clients are split 32 and 32 between them.
#
# Usage: bench/create.sh [seconds per run, default 10]
# Needs wrk, curl, python3 and PostgreSQL's server binaries (wrk and PostgreSQL are installed
# from Debian's packages when missing). Talks only to 127.0.0.1.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/common.sh
secs=${1:-10}
key=lk_bench_admin_key_000000000001
clients=64
users=64

if ! command -v wrk >/dev/null; then
  apt-get update -qq && apt-get install -y -qq wrk >/dev/null
fi
need_postgres
cargo build --release -q -p linkapi-cli

scratch=$(mktemp -d)
chmod 755 "$scratch"
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  stop_postgres "$scratch/pg"
  rm -rf "$scratch"
}
trap cleanup EXIT

start_postgres "$scratch/pg" max_connections=300
as_pg "$pgbin/createdb" -h 127.0.0.1 -p "$pgport" -U postgres baseline

# One user's key (the bootstrap admin) on every request, or one of $users users' keys in turn.
cat >"$scratch/create.lua" <<'LUA'
local keys = {}
function init(args)
  for key in io.lines(args[1]) do keys[#keys + 1] = key end
  counter = math.random(#keys)
end
function request()
  counter = counter % #keys + 1
  return wrk.format("POST", nil, {
    ["Content-Type"] = "application/json",
    ["Authorization"] = "Bearer " .. keys[counter],
  }, '{"target_url":"https://example.com/bench"}')
end
-- Counts answers other than 2xx/3xx, so a refused create cannot pass for a fast one.
function done(summary, latency, requests)
  io.write(string.format("errors %d non2xx\n", summary.errors.status))
end
LUA
echo "$key" >"$scratch/one-user.keys"

# rate KEYS PORT...: creates/s over one run, the clients split between the ports, failing
# loudly if any create was refused.
rate() {
  local keys=$1; shift
  local per=$((clients / $#)) outs=() runs=()
  for port in "$@"; do
    out="$scratch/wrk.$port"
    wrk -t1 -c$per -d"${secs}s" -s "$scratch/create.lua" "http://127.0.0.1:$port/chains" \
      -- "$keys" >"$out" &
    runs+=($!)
    outs+=("$out")
  done
  wait "${runs[@]}"
  for out in "${outs[@]}"; do
    if ! grep -q '^errors 0 non2xx' "$out"; then
      echo "some creates failed:" >&2; cat "$out" >&2; exit 1
    fi
  done
  python3 - "${outs[@]}" <<'PY'
import re, sys
print(round(sum(float(re.search(r"Requests/sec:\s+([\d.]+)", open(f).read()).group(1))
                for f in sys.argv[1:])))
PY
}

# serve NAME [extra flags...]: starts linkapi serve on a free port, left in $port. (Not in a
# command substitution: its subshell would lose the pid and run the cleanup trap.)
serve() {
  local name=$1; shift
  port=$(free_port)
  mkdir -p "$scratch/$name"
  # Rate limiting off and a quota no run reaches: this measures creation, not the limits.
  printf 'rate_limit_per_second = 0\ndaily_create_quota = 100000000\n' >"$scratch/$name/linkapi.toml"
  LINKAPI_INITIAL_API_KEY=$key LINKAPI_LOG=warn ./target/release/linkapi serve \
    --listen "127.0.0.1:$port" --data-dir "$scratch/$name/data" \
    --config "$scratch/$name/linkapi.toml" "$@" 2>"$scratch/$name/server.log" &
  pids+=($!)
  for _ in $(seq 100); do curl -fs "http://127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.1; done
}

# users PORT: $users users with a key each (chains:write), their keys in $scratch/many.keys.
make_users() {
  local port=$1 stamp=$RANDOM
  : >"$scratch/many.keys"
  for i in $(seq "$users"); do
    id=$(curl -fs -H "Authorization: Bearer $key" -H 'Content-Type: application/json' \
      -d "{\"name\":\"bench-$stamp-$i\",\"daily_quota\":100000000}" \
      "http://127.0.0.1:$port/admin/users" | python3 -c 'import json,sys; print(json.load(sys.stdin)["data"]["id"])')
    curl -fs -H "Authorization: Bearer $key" -H 'Content-Type: application/json' \
      -d "{\"user_id\":$id,\"scopes\":[\"chains:write\"]}" "http://127.0.0.1:$port/admin/keys" \
      | python3 -c 'import json,sys; print(json.load(sys.stdin)["data"]["api_key"])' \
      >>"$scratch/many.keys"
  done
}

# bulk PORT: seconds for one POST /chains/bulk of 10,000 chains, best and worst of 5.
python3 -c 'import json; print(json.dumps({"chains": [{"target_url": f"https://example.com/bulk/{i}"} for i in range(10000)]}))' \
  >"$scratch/bulk.json"
bulk() {
  local times=()
  for _ in 1 2 3 4 5; do
    times+=("$(curl -fs -o /dev/null -w '%{time_total}' -H "Authorization: Bearer $key" \
      -H 'Content-Type: application/json' --data-binary "@$scratch/bulk.json" \
      "http://127.0.0.1:$1/chains/bulk")")
  done
  printf '%s\n' "${times[@]}" | sort -n | sed -n '1p;$p' | paste -sd' '
}

# measure NAME PORT...: every figure of one deployment, as "NAME one1 one2 many bulk_best bulk_worst".
measure() {
  local name=$1; shift
  local one1 one2 many b
  one1=$(rate "$scratch/one-user.keys" "$@")
  one2=$(rate "$scratch/one-user.keys" "$@")
  make_users "$1"
  many=$(rate "$scratch/many.keys" "$@")
  b=$(bulk "$1")
  echo "$name $one1 $one2 $many $b" >>"$scratch/results"
}

serve sqlite
measure sqlite "$port"
kill "${pids[-1]}"

as_pg "$pgbin/createdb" -h 127.0.0.1 -p "$pgport" -U postgres one
serve pg-one --database-url "postgres://postgres@127.0.0.1:$pgport/one"
measure pg-one "$port"
kill "${pids[-1]}"

as_pg "$pgbin/createdb" -h 127.0.0.1 -p "$pgport" -U postgres two
serve pg-two-a --database-url "postgres://postgres@127.0.0.1:$pgport/two"
first=$port
serve pg-two-b --database-url "postgres://postgres@127.0.0.1:$pgport/two"
measure pg-two "$first" "$port"

# The outside baseline: one durable INSERT per transaction, 64 clients.
as_pg "$pgbin/psql" -q -h 127.0.0.1 -p "$pgport" -U postgres -d baseline -c \
  "CREATE TABLE links (id bigserial PRIMARY KEY, code text UNIQUE NOT NULL, target text NOT NULL)"
printf "INSERT INTO links (code, target) VALUES (md5(random()::text), 'https://example.com/bench');\n" \
  >"$scratch/insert.sql"
chmod 644 "$scratch/insert.sql"
baseline=$(as_pg "$pgbin/pgbench" -n -h 127.0.0.1 -p "$pgport" -U postgres -c $clients -j 2 \
  -T "$secs" -f "$scratch/insert.sql" baseline | awk '/^tps/ {printf "%d", $3}')

python3 - "$baseline" "$scratch/results" <<'PY'
import sys
base = float(sys.argv[1])
rows = [line.split() for line in open(sys.argv[2])]
names = {"sqlite": "SQLite", "pg-one": "PostgreSQL, 1 instance", "pg-two": "PostgreSQL, 2 instances"}
print(f"pgbench durable single-row INSERT, 64 clients: {base:.0f} tx/s\n")
print(f"{'':26} {'1 user, run 1':>14} {'run 2':>8} {'64 users':>9} {'bulk 10k (s)':>14}")
for name, one1, one2, many, best, worst in rows:
    print(f"{names[name]:26} {one1:>14} {one2:>8} {many:>9} {best + '-' + worst:>14}")
print("\ncreates/s over pgbench's INSERT/s (run 2 over run 1):")
for name, one1, one2, many, *_ in rows:
    one1, one2, many = float(one1), float(one2), float(many)
    print(f"  {names[name]:26} 1 user {one2 / base:.2f}x ({one2 / one1:.2f})   64 users {many / base:.2f}x")
PY
