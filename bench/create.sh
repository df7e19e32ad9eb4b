#!/usr/bin/env bash
# Durable chain creation per second with 64 clients, on SQLite and on PostgreSQL, side by side,
# against an outside baseline measured in the same run: PostgreSQL itself doing durable
# single-row INSERTs (pgbench, 64 clients, a commit each, fsync on). Every created chain is
# acknowledged only after its commit reached the disk, on both backends.
#
# Each backend gets two consecutive runs: the second starts with the first run's chains already
# counted against the day, so a rate that fell as a user's chains of the day grow would show.
#
# Usage: bench/create.sh [seconds per run, default 10]
# Needs wrk and PostgreSQL's server binaries (installed from Debian's packages when missing).
# Talks only to 127.0.0.1.
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-10}
key=lk_bench_admin_key_000000000001
clients=64

if ! command -v wrk >/dev/null; then
  apt-get update -qq && apt-get install -y -qq wrk >/dev/null
fi
if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
  apt-get update -qq && apt-get install -y -qq --no-install-recommends postgresql >/dev/null
fi
pgbin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
cargo build --release -q -p linkapi-cli

scratch=$(mktemp -d)
chmod 755 "$scratch"
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  as_pg "$pgbin/pg_ctl" -D "$scratch/pg" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$scratch"
}
trap cleanup EXIT
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
as_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }

# A durable cluster: PostgreSQL's defaults (fsync, synchronous_commit, full_page_writes on).
pgport=$(free_port)
mkdir -p "$scratch/pg"
[ "$(id -u)" = 0 ] && chown postgres "$scratch/pg"
as_pg "$pgbin/initdb" -D "$scratch/pg" -A trust -U postgres -E UTF8 --locale=C >/dev/null
as_pg "$pgbin/pg_ctl" -D "$scratch/pg" -l "$scratch/pg/log" -w \
  -o "-p $pgport -k $scratch/pg -c listen_addresses=127.0.0.1 -c max_connections=200" start >/dev/null
as_pg "$pgbin/createdb" -h 127.0.0.1 -p "$pgport" -U postgres linkapi
as_pg "$pgbin/createdb" -h 127.0.0.1 -p "$pgport" -U postgres baseline

cat >"$scratch/create.lua" <<'LUA'
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"target_url":"https://example.com/bench"}'
-- Counts answers other than 2xx/3xx, so a refused create cannot pass for a fast one.
function done(summary, latency, requests)
  io.write(string.format("errors %d non2xx\n", summary.errors.status))
end
LUA

# rate PORT: creates/s over one run, failing loudly if any create was refused.
rate() {
  local out
  out=$(wrk -t2 -c$clients -d"${secs}s" -s "$scratch/create.lua" \
    -H "Authorization: Bearer $key" "http://127.0.0.1:$1/chains")
  if ! grep -q '^errors 0 non2xx' <<<"$out"; then
    echo "some creates failed:" >&2; echo "$out" >&2; exit 1
  fi
  awk '/Requests\/sec/ {print $2}' <<<"$out"
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

serve sqlite
sqlite_1=$(rate "$port"); sqlite_2=$(rate "$port")
kill "${pids[-1]}"

serve postgres --database-url "postgres://postgres@127.0.0.1:$pgport/linkapi"
pg_1=$(rate "$port"); pg_2=$(rate "$port")
kill "${pids[-1]}"

# The outside baseline: one durable INSERT per transaction, 64 clients.
as_pg "$pgbin/psql" -q -h 127.0.0.1 -p "$pgport" -U postgres -d baseline -c \
  "CREATE TABLE links (id bigserial PRIMARY KEY, code text UNIQUE NOT NULL, target text NOT NULL)"
printf "INSERT INTO links (code, target) VALUES (md5(random()::text), 'https://example.com/bench');\n" \
  >"$scratch/insert.sql"
chmod 644 "$scratch/insert.sql"
baseline=$(as_pg "$pgbin/pgbench" -n -h 127.0.0.1 -p "$pgport" -U postgres -c $clients -j 2 \
  -T "$secs" -f "$scratch/insert.sql" baseline | awk '/^tps/ {print $3}')

printf '%-44s %10s %10s\n' "" "run 1" "run 2"
printf '%-44s %10s %10s\n' "linkapi POST /chains, SQLite (creates/s)" "$sqlite_1" "$sqlite_2"
printf '%-44s %10s %10s\n' "linkapi POST /chains, PostgreSQL (creates/s)" "$pg_1" "$pg_2"
printf '%-44s %10s\n' "pgbench durable INSERT, 64 clients (tx/s)" "$baseline"
python3 - "$sqlite_1" "$sqlite_2" "$pg_1" "$pg_2" "$baseline" <<'PY'
import sys
s1, s2, p1, p2, base = map(float, sys.argv[1:])
print(f"SQLite / baseline:      {s2 / base:.2f}x   (run 2 / run 1: {s2 / s1:.2f})")
print(f"PostgreSQL / baseline:  {p2 / base:.2f}x   (run 2 / run 1: {p2 / p1:.2f})")
print(f"SQLite / PostgreSQL:    {s2 / p2:.2f}x")
PY
