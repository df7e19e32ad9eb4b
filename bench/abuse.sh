#!/usr/bin/env bash
# Availability under abuse: what the well-behaved tenants get (creates, a vendor-style client
# with its key in the body, redirects, each every 100 ms) while one party in turn does what
# the limits allow it: the largest bulk creates one after another, 160 bodies trickled from
# one user's two keys, 60 trickled with no key, 24 concurrent uploads of 9.7 MB. The outside
# baseline is the same server unabused, in the same run: each phase's p99 is reported as a
# ratio to the quiet phase's. Release build, default configuration, on SQLite and then on two
# PostgreSQL instances over one database (Debian's postgresql, installed when missing).
#
# It is linkapi-server/tests/abuse built for release, which also holds the bounds (0 wrong
# answers, p99 under 300 ms, RssAnon under 512 MiB) and fails when one is passed.
#
# Usage: bench/abuse.sh. Talks only to 127.0.0.1.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/common.sh
need_postgres

cargo test --release -q -p linkapi-server --test abuse --no-run
for backend in sqlite postgres; do
  echo "== $backend"
  LINKAPI_TEST_BACKEND=$backend \
    cargo test --release -q -p linkapi-server --test abuse -- --nocapture 2>&1 |
    grep -E '^(quiet|largest|one user|60 clients|24 concurrent)|^  (create|vendor|redirect)|^test result'
done
