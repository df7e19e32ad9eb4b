#!/usr/bin/env bash
# A million chains imported from a CSV file with `linkapi chain import`, into a fresh server
# on SQLite (the default deployment), against an outside baseline measured in the same run:
# the same rows loaded into a fresh SQLite database by the sqlite3 shell's `.import` in one
# transaction (no HTTP, no checks, one commit), the fastest a file of rows gets into SQLite.
# Then the same rows as another shortener's export (chhoto-url's /api/all JSON, with codes and
# visit totals) through `linkapi import --from chhoto` into another fresh server.
#
# Usage: bench/import.sh [rows, default 1000000]
# Needs python3 and the sqlite3 shell (installed from Debian's packages when missing). Talks
# only to 127.0.0.1.
set -euo pipefail
cd "$(dirname "$0")/.."
rows=${1:-1000000}
key=lk_bench_admin_key_000000000001

if ! command -v sqlite3 >/dev/null; then
  apt-get update -qq && apt-get install -y -qq sqlite3 >/dev/null
fi
cargo build --release -q -p linkapi-cli

scratch=$(mktemp -d)
server=
cleanup() {
  [ -n "$server" ] && kill "$server" 2>/dev/null || true
  wait 2>/dev/null || true
  rm -rf "$scratch"
}
trap cleanup EXIT
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')

python3 - "$rows" "$scratch/links.csv" "$scratch/api-all.json" <<'PY'
import json, sys
rows, path, peer = int(sys.argv[1]), sys.argv[2], sys.argv[3]
with open(path, "w") as out:
    out.write("target_url,title\n")
    for i in range(rows):
        out.write(f"https://example.com/import/{i}?utm_source=bench,Imported link {i}\n")
with open(peer, "w") as out:
    json.dump([{"shortlink": f"Imported-{i}",
                "longlink": f"https://example.com/import/{i}?utm_source=bench",
                "hits": i % 100, "expiry_time": 0, "notes": f"Imported link {i}"}
               for i in range(rows)], out, separators=(",", ":"))
PY

# Rate limiting off and a quota the import does not reach: this measures the import.
printf 'rate_limit_per_second = 0\ndaily_create_quota = 100000000\n' >"$scratch/linkapi.toml"
LINKAPI_INITIAL_API_KEY=$key LINKAPI_LOG=warn ./target/release/linkapi serve \
  --listen "127.0.0.1:$port" --data-dir "$scratch/data" --config "$scratch/linkapi.toml" \
  2>"$scratch/server.log" &
server=$!
for _ in $(seq 100); do curl -fs "http://127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.1; done

start=$(date +%s.%N)
LINKAPI_HOST=http://127.0.0.1:$port LINKAPI_API_KEY=$key LINKAPI_KEYRING=none \
  ./target/release/linkapi chain import "$scratch/links.csv" >"$scratch/results.tsv" \
  2>"$scratch/import.log"
import_secs=$(python3 -c "import time; print(f'{time.time() - $start:.1f}')")
ok=$(grep -c $'\tok\t' "$scratch/results.tsv" || true)
if [ "$ok" -ne "$rows" ]; then
  echo "only $ok of $rows lines were created:" >&2; tail -5 "$scratch/import.log" >&2; exit 1
fi

# The peer's export, into a fresh server of its own.
kill "$server"; wait "$server" 2>/dev/null || true
LINKAPI_INITIAL_API_KEY=$key LINKAPI_LOG=warn ./target/release/linkapi serve \
  --listen "127.0.0.1:$port" --data-dir "$scratch/peer-data" --config "$scratch/linkapi.toml" \
  2>"$scratch/peer-server.log" &
server=$!
for _ in $(seq 100); do curl -fs "http://127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.1; done
start=$(date +%s.%N)
LINKAPI_HOST=http://127.0.0.1:$port LINKAPI_API_KEY=$key LINKAPI_KEYRING=none \
  ./target/release/linkapi import --from chhoto "$scratch/api-all.json" \
  >"$scratch/peer-results.tsv" 2>"$scratch/peer-import.log"
peer_secs=$(python3 -c "import time; print(f'{time.time() - $start:.1f}')")
if ! grep -q "^Imported $rows of $rows links" "$scratch/peer-import.log"; then
  echo "the peer import did not import every link:" >&2; tail -5 "$scratch/peer-import.log" >&2
  exit 1
fi
# Run again, as after an interruption: every link is there already and nothing is imported.
start=$(date +%s.%N)
LINKAPI_HOST=http://127.0.0.1:$port LINKAPI_API_KEY=$key LINKAPI_KEYRING=none \
  ./target/release/linkapi import --from chhoto "$scratch/api-all.json" \
  >"$scratch/peer-again.tsv" 2>"$scratch/peer-again.log"
again_secs=$(python3 -c "import time; print(f'{time.time() - $start:.1f}')")
if ! grep -q "^Imported 0 of $rows links from chhoto-url; $rows there already" "$scratch/peer-again.log"; then
  echo "the second peer import was not all there already:" >&2; tail -5 "$scratch/peer-again.log" >&2
  exit 1
fi

start=$(date +%s.%N)
sqlite3 "$scratch/baseline.db" <<SQL
CREATE TABLE links (target_url TEXT NOT NULL, title TEXT NOT NULL);
.mode csv
.import --skip 1 $scratch/links.csv links
SQL
baseline_secs=$(python3 -c "import time; print(f'{time.time() - $start:.1f}')")

python3 - "$rows" "$import_secs" "$baseline_secs" "$peer_secs" "$again_secs" <<'PY'
import sys
rows, imported, baseline, peer, again = int(sys.argv[1]), *map(float, sys.argv[2:6])
print(f"{rows} rows")
print(f"linkapi chain import (SQLite server): {imported:7.1f} s  {rows / imported:9.0f} chains/s")
print(f"linkapi import --from chhoto:         {peer:7.1f} s  {rows / peer:9.0f} chains/s")
print(f"  the same again (all there already):   {again:7.1f} s  {rows / again:9.0f} links/s")
print(f"sqlite3 .import, one transaction:     {baseline:7.1f} s  {rows / baseline:9.0f} rows/s")
print(f"import time over the baseline's: {imported / baseline:.1f}x")
print(f"peer import time over chain import's: {peer / imported:.2f}x")
PY
