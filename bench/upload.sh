#!/usr/bin/env bash
# Batch image upload: 1,000 small images through `linkapi upload --dir`, against the outside
# baseline of parallel curl uploads of the same files (`curl -F file=@...`, one process per
# file, as many at once as the CLI's --jobs), measured in the same run on the same server.
#
# Each measurement gets a fresh server and data directory, so neither side meets the other's
# uploads (the same bytes uploaded again answer the first upload and cost less). The two sides
# alternate for the given number of rounds; the ratio is the median curl time over the median
# CLI time (above 1: the CLI is faster). Server on CPU 0, clients on CPU 1.
#
# Usage: bench/upload.sh [rounds, default 3] [files, default 1000] [jobs, default 8]
# Talks only to 127.0.0.1.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3}
files=${2:-1000}
jobs=${3:-8}
key=lk_bench_admin_key_000000000001

cargo build --release -q -p linkapi-cli
bin=$PWD/target/release/linkapi

scratch=$(mktemp -d)
server_pid=
cleanup() {
  [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null || true
  wait 2>/dev/null || true
  rm -rf "$scratch"
}
trap cleanup EXIT
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

# Distinct valid PNGs of about 2 KiB (a text chunk makes each unique).
python3 - "$scratch/images" "$files" <<'PY'
import os, struct, sys, zlib
out, count = sys.argv[1], int(sys.argv[2])
os.makedirs(out)
def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
for i in range(count):
    text = b"Comment\0" + (b"image %d " % i) * 160
    png = (b"\x89PNG\r\n\x1a\n"
           + chunk(b"IHDR", bytes([0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0]))
           + chunk(b"tEXt", text[:2000])
           + chunk(b"IDAT", bytes([0x78, 0x9C, 0x63, 0, 1, 0, 0, 5, 0, 1]))
           + chunk(b"IEND", b""))
    with open(os.path.join(out, "img%04d.png" % i), "wb") as f:
        f.write(png)
PY
printf 'rate_limit_per_second = 0\n' >"$scratch/linkapi.toml"

start_server() {
  rm -rf "$scratch/data"
  port=$(free_port)
  LINKAPI_INITIAL_API_KEY=$key LINKAPI_LOG=warn taskset -c 0 "$bin" serve \
    --listen "127.0.0.1:$port" --data-dir "$scratch/data" --config "$scratch/linkapi.toml" \
    >/dev/null 2>&1 &
  server_pid=$!
  for _ in $(seq 100); do
    curl -sf "http://127.0.0.1:$port/healthz" >/dev/null && return
    sleep 0.05
  done
  echo "server did not start" >&2
  exit 1
}
stop_server() {
  kill "$server_pid"
  wait "$server_pid" 2>/dev/null || true
  server_pid=
}
now() { date +%s.%N; }

run_curl() {
  find "$scratch/images" -name '*.png' -print0 | taskset -c 1 xargs -0 -P "$jobs" -I{} \
    curl -sf -o /dev/null -H "Authorization: Bearer $key" -F "file=@{}" \
    "http://127.0.0.1:$port/uploads"
}
run_cli() {
  LINKAPI_HOST="http://127.0.0.1:$port" LINKAPI_API_KEY=$key LINKAPI_KEYRING=none \
    LINKAPI_CONFIG_DIR="$scratch/cfg" taskset -c 1 "$bin" upload --dir "$scratch/images" \
    --jobs "$jobs" >/dev/null 2>"$scratch/cli.err"
}
count_uploads() {
  curl -sf -H "Authorization: Bearer $key" "http://127.0.0.1:$port/uploads?page_size=1" |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["data"]["total"])'
}

curl_times=()
cli_times=()
for round in $(seq "$rounds"); do
  for side in curl cli; do
    start_server
    t0=$(now)
    if [ "$side" = curl ]; then run_curl; else run_cli; fi
    t1=$(now)
    stored=$(count_uploads)
    stop_server
    if [ "$stored" != "$files" ]; then
      echo "$side stored $stored of $files files" >&2
      exit 1
    fi
    t=$(python3 -c "print(f'{$t1 - $t0:.3f}')")
    printf 'round %d  %-4s %6.3f s  %7.1f files/s\n' "$round" "$side" "$t" \
      "$(python3 -c "print($files / $t)")"
    if [ "$side" = curl ]; then curl_times+=("$t"); else cli_times+=("$t"); fi
  done
done

python3 - "${curl_times[*]}" "${cli_times[*]}" "$files" "$jobs" <<'PY'
import statistics, sys
curl = [float(t) for t in sys.argv[1].split()]
cli = [float(t) for t in sys.argv[2].split()]
files, jobs = int(sys.argv[3]), int(sys.argv[4])
c, l = statistics.median(curl), statistics.median(cli)
print(f"\n{files} files, {jobs} at a time, median of {len(curl)} rounds")
print(f"parallel curl     {c:7.3f} s  {files / c:7.1f} files/s")
print(f"linkapi upload    {l:7.3f} s  {files / l:7.1f} files/s")
print(f"ratio (CLI throughput / curl throughput): {c / l:.2f}  (goal: at least 0.8)")
PY
