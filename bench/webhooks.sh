#!/usr/bin/env bash
# Webhooks under load, on the default deployment (SQLite): how fast chains are created with one
# endpoint subscribed to chain.created against without one (the same server, the same run),
# and how fast events reach a local receiver against what that receiver takes from wrk.
#
#   1. POST /chains, 64 clients, for SECONDS, with the user's one endpoint disabled (so no
#      event is written): the baseline rate;
#   2. the endpoint (`linkapi webhook listen` on loopback) enabled, subscribed to
#      chain.created, the same load: the rate with an event written in every create's
#      transaction; 1 and 2 alternate, three rounds each, and the medians' ratio is the figure
#      (goal: at least 0.8);
#   3. after each round of 2, the time until the receiver has every event of it: deliveries
#      per second, end to end;
#   4. one more round of 2 with a second endpoint beside the first that takes connections and
#      never answers (each of its attempts runs to the 10 s timeout): deliveries per second to
#      the healthy one, against step 3's (fair delivery: the hanging one holds 16 attempts);
#   5. wrk posting straight to the same receiver (64 connections): what it takes, the ceiling.
#
# Usage: bench/webhooks.sh [seconds per run, default 10]
# Needs wrk and curl (wrk from Debian's packages when missing). Talks only to 127.0.0.1.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/common.sh
secs=${1:-10}
key=lk_bench_admin_key_000000000001

if ! command -v wrk >/dev/null; then
  apt-get update -qq && apt-get install -y -qq wrk >/dev/null
fi
cargo build --release -q -p linkapi-cli

scratch=$(mktemp -d)
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$scratch"
}
trap cleanup EXIT

cat >"$scratch/create.lua" <<'LUA'
function request()
  return wrk.format("POST", nil, {
    ["Content-Type"] = "application/json",
    ["Authorization"] = "Bearer lk_bench_admin_key_000000000001",
  }, '{"target_url":"https://example.com/bench"}')
end
function done(summary, latency, requests)
  io.write(string.format("errors %d non2xx\n", summary.errors.status))
  io.write(string.format("created %d\n", summary.requests - summary.errors.status))
end
LUA
cat >"$scratch/post.lua" <<'LUA'
function request()
  return wrk.format("POST", nil, {["Content-Type"] = "application/json"},
    '{"type":"chain.created","timestamp":"2027-01-15T08:00:00Z","data":{"id":1}}')
end
LUA

port=$(free_port)
receiver_port=$(free_port)
mkdir -p "$scratch/server"
printf 'rate_limit_per_second = 0\ndaily_create_quota = 100000000\nwebhook_allow_private = true\n' \
  >"$scratch/server/linkapi.toml"
LINKAPI_INITIAL_API_KEY=$key LINKAPI_LOG=warn ./target/release/linkapi serve \
  --listen "127.0.0.1:$port" --data-dir "$scratch/server/data" \
  --config "$scratch/server/linkapi.toml" 2>"$scratch/server.log" &
pids+=($!)
for _ in $(seq 100); do curl -fs "http://127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.1; done
export LINKAPI_HOST=http://127.0.0.1:$port LINKAPI_API_KEY=$key LINKAPI_KEYRING=none
export LINKAPI_CONFIG_DIR=$scratch/cli

# run NAME: one create run; prints creates/s (the count of creates is in $scratch/wrk.NAME).
run() {
  wrk -t1 -c64 -d"${secs}s" -s "$scratch/create.lua" "http://127.0.0.1:$port/chains" \
    >"$scratch/wrk.$1"
  grep -q '^errors 0 non2xx' "$scratch/wrk.$1" || { cat "$scratch/wrk.$1" >&2; exit 1; }
  awk '/Requests\/sec/{printf "%.0f\n", $2}' "$scratch/wrk.$1"
}

./target/release/linkapi webhook listen --port "$receiver_port" --json \
  >"$scratch/received.jsonl" 2>/dev/null &
pids+=($!)
for _ in $(seq 100); do curl -s -o /dev/null "http://127.0.0.1:$receiver_port/" && break; sleep 0.1; done
hook=$(./target/release/linkapi webhook add "${BENCH_URL:-http://127.0.0.1:$receiver_port/}" \
  --events "${BENCH_EVENTS:-chain.created}" --json=id \
  | python3 -c 'import json, sys; print(json.load(sys.stdin)["id"])')

# The machine's speed drifts from minute to minute: the two loads alternate and the medians are
# compared.
withouts=() withs=() delivered=() spans=()
for round in 1 2 3; do
  ./target/release/linkapi webhook edit "$hook" --disable --json=id >/dev/null
  echo "round $round: creating for ${secs}s, the endpoint disabled ..."
  withouts+=("$(run "without.$round")")
  ./target/release/linkapi webhook edit "$hook" --enable --json=id >/dev/null
  echo "round $round: creating for ${secs}s, the endpoint subscribed ..."
  before=$(wc -l <"$scratch/received.jsonl")
  started=$(date +%s.%N)
  withs+=("$(run "with.$round")")
  expected=$((before + $(awk '/^created/{print $2}' "$scratch/wrk.with.$round")))
  # Variations for finding where the time goes (nothing to wait for then):
  # BENCH_EVENTS=upload.created (an endpoint no create reports to) or
  # BENCH_URL=http://10.255.255.1/ (events written, attempts hanging until their timeout).
  if [ "${BENCH_EVENTS:-chain.created}" != chain.created ] || [ -n "${BENCH_URL:-}" ]; then
    expected=$before
  fi
  for _ in $(seq 600); do
    [ "$(wc -l <"$scratch/received.jsonl")" -ge "$expected" ] && break
    sleep 0.1
  done
  finished=$(date +%s.%N)
  got=$(wc -l <"$scratch/received.jsonl")
  [ "$got" -ge "$expected" ] || { echo "only $got of $expected events arrived" >&2; exit 1; }
  delivered+=("$((got - before))")
  spans+=("$(python3 -c "print($finished - $started)")")
done

# An endpoint that takes connections and never answers, beside the healthy one.
hang_port=$(free_port)
python3 - "$hang_port" <<'PY' &
import socket, sys
server = socket.socket()
server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
server.bind(("127.0.0.1", int(sys.argv[1])))
server.listen(4096)
held = []
while True:
    connection, _ = server.accept()
    held.append(connection)
PY
pids+=($!)
sleep 0.3
./target/release/linkapi webhook add "http://127.0.0.1:$hang_port/" --events chain.created \
  --json=id >/dev/null
echo "a round with an endpoint that never answers beside the healthy one ..."
before=$(wc -l <"$scratch/received.jsonl")
started=$(date +%s.%N)
hanging_rate=$(run hanging)
expected=$((before + $(awk '/^created/{print $2}' "$scratch/wrk.hanging")))
for _ in $(seq 600); do
  [ "$(wc -l <"$scratch/received.jsonl")" -ge "$expected" ] && break
  sleep 0.1
done
finished=$(date +%s.%N)
got=$(wc -l <"$scratch/received.jsonl")
[ "$got" -ge "$expected" ] || { echo "only $got of $expected events arrived beside the hanging endpoint" >&2; exit 1; }
hanging_delivered=$((got - before))
hanging_span=$(python3 -c "print($finished - $started)")

echo "wrk posting straight to the receiver for ${secs}s ..."
wrk -t1 -c64 -d"${secs}s" -s "$scratch/post.lua" "http://127.0.0.1:$receiver_port/" \
  >"$scratch/wrk.receiver"
ceiling=$(awk '/Requests\/sec/{printf "%.0f\n", $2}' "$scratch/wrk.receiver")

python3 - "$ceiling" "$secs" "${withouts[*]}" "${withs[*]}" "${delivered[*]}" "${spans[*]}" \
  "$hanging_rate" "$hanging_delivered" "$hanging_span" <<'PY'
import statistics, sys
ceiling, secs = float(sys.argv[1]), float(sys.argv[2])
withouts, withs, delivered, spans = ([float(x) for x in a.split()] for a in sys.argv[3:7])
hanging_rate, hanging_delivered, hanging_span = (float(x) for x in sys.argv[7:10])
without, with_ = statistics.median(withouts), statistics.median(withs)
rates = [d / s for d, s in zip(delivered, spans)]
print(f"creates/s, endpoint disabled:   {', '.join(f'{x:,.0f}' for x in withouts)} (median {without:,.0f})")
print(f"creates/s, endpoint subscribed: {', '.join(f'{x:,.0f}' for x in withs)} (median {with_:,.0f})")
print(f"ratio of the medians: {with_ / without:.2f} (goal >= 0.8); round by round "
      f"{', '.join(f'{w / o:.2f}' for o, w in zip(withouts, withs))}")
print(f"events delivered per round: {', '.join(f'{d:,.0f}' for d in delivered)}, each round's "
      f"all in {', '.join(f'{s:.1f}' for s in spans)} s from its start ({secs:.0f} s of creating): "
      f"{statistics.median(rates):,.0f} deliveries/s end to end (median)")
beside = hanging_delivered / hanging_span
print(f"with an endpoint that never answers beside it: {hanging_rate:,.0f} creates/s, "
      f"{hanging_delivered:,.0f} events to the healthy endpoint in {hanging_span:.1f} s: "
      f"{beside:,.0f} deliveries/s ({beside / statistics.median(rates):.2f} of the rate without it)")
print(f"the receiver alone, wrk with 64 connections: {ceiling:,.0f} requests/s")
PY
