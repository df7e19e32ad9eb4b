#!/usr/bin/env bash
# Batch image upload: 1,000 small images through `linkapi upload --dir`, against two outside
# baselines of curl uploading the same files (`-F file=@...`), measured in the same run on the
# same server, as many at once as the CLI's --jobs:
#   curl-xargs     one curl process per file (what a shell script does), and
#   curl-parallel  one curl process for all files (`--parallel`, connections reused): the
#                  stronger baseline, and the one the goal is measured against.
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
source bench/common.sh
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
run_curl_parallel() {
  # One block per file, separated by `next` (none after the last, or curl sees an empty one).
  find "$scratch/images" -name '*.png' | sort | while read -r f; do
    printf 'url = "http://127.0.0.1:%s/uploads"\nheader = "Authorization: Bearer %s"\n' "$port" "$key"
    printf 'form = "file=@%s"\noutput = "/dev/null"\nfail\nnext\n' "$f"
  done | sed '$d' >"$scratch/curl.cfg"
  taskset -c 1 curl --silent --no-progress-meter --parallel --parallel-max "$jobs" \
    -K "$scratch/curl.cfg" 2>/dev/null
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

xargs_times=()
curl_times=()
cli_times=()
for round in $(seq "$rounds"); do
  for side in curl-xargs curl-parallel cli; do
    start_server
    t0=$(now)
    case $side in
      curl-xargs) run_curl ;;
      curl-parallel) run_curl_parallel ;;
      cli) run_cli ;;
    esac
    t1=$(now)
    stored=$(count_uploads)
    stop_server
    if [ "$stored" != "$files" ]; then
      echo "$side stored $stored of $files files" >&2
      exit 1
    fi
    t=$(python3 -c "print(f'{$t1 - $t0:.3f}')")
    printf 'round %d  %-13s %6.3f s  %7.1f files/s\n' "$round" "$side" "$t" \
      "$(python3 -c "print($files / $t)")"
    case $side in
      curl-xargs) xargs_times+=("$t") ;;
      curl-parallel) curl_times+=("$t") ;;
      cli) cli_times+=("$t") ;;
    esac
  done
done

python3 - "${xargs_times[*]}" "${curl_times[*]}" "${cli_times[*]}" "$files" "$jobs" <<'PY'
import statistics, sys
xargs, curl, cli = ([float(t) for t in a.split()] for a in sys.argv[1:4])
files, jobs = int(sys.argv[4]), int(sys.argv[5])
x, c, l = statistics.median(xargs), statistics.median(curl), statistics.median(cli)
print(f"\n{files} files, {jobs} at a time, median of {len(curl)} rounds")
print(f"curl, a process per file   {x:7.3f} s  {files / x:7.1f} files/s")
print(f"curl --parallel            {c:7.3f} s  {files / c:7.1f} files/s")
print(f"linkapi upload             {l:7.3f} s  {files / l:7.1f} files/s")
print(f"ratio against curl --parallel: {c / l:.2f}  (goal: at least 0.8)")
print(f"ratio against a curl process per file: {x / l:.2f}")
PY
