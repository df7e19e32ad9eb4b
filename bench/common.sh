# Shared by the benchmark scripts (sourced): a free port, running as the postgres user when
# root, a throwaway PostgreSQL cluster, waiting for a linkapi server's visits to be written,
# and the wrk script of random codes among the 10,000 chains the redirect benchmarks seed.

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

# drain URL: waits (two minutes at most) until the linkapi server at URL has no visit waiting
# to be written, so that what runs next on its core has the core to itself.
drain() {
  for _ in $(seq 240); do
    [ "$(curl -fs "$1/metrics" | awk '/^linkapi_visit_pending_entries / {print $2}')" = 0 ] &&
      return
    sleep 0.5
  done
}

as_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }

# Installs PostgreSQL's server binaries from Debian's packages when missing.
need_postgres() {
  if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
    apt-get update -qq && apt-get install -y -qq --no-install-recommends postgresql >/dev/null
  fi
}

# start_postgres DIR [SETTING=VALUE...]: a durable cluster (PostgreSQL's defaults: fsync,
# synchronous_commit, full_page_writes on) in DIR, listening on 127.0.0.1 at a free port, left
# in $pgport; $pgbin names its binaries. PG_TASKSET (e.g. "taskset -c 0") pins it.
start_postgres() {
  local dir=$1 settings="" setting
  shift
  for setting in "$@"; do settings+=" -c $setting"; done
  pgbin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
  pgport=$(free_port)
  mkdir -p "$dir"
  if [ "$(id -u)" = 0 ]; then chown postgres "$dir"; fi
  as_pg "$pgbin/initdb" -D "$dir" -A trust -U postgres -E UTF8 --locale=C >/dev/null
  # shellcheck disable=SC2086 # PG_TASKSET is a command prefix, split on purpose
  as_pg ${PG_TASKSET:-} "$pgbin/pg_ctl" -D "$dir" -l "$dir/log" -w \
    -o "-p $pgport -k $dir -c listen_addresses=127.0.0.1$settings" start >/dev/null
}

# stop_postgres DIR: stops the cluster start_postgres started there, if it did.
stop_postgres() {
  if [ -n "${pgbin:-}" ]; then
    as_pg "$pgbin/pg_ctl" -D "$1" -m immediate stop >/dev/null 2>&1 || true
  fi
}

# random_codes_lua FILE [VISITORS]: writes a wrk script asking for random codes among
# b00000-b09999 with a browser's user agent, so every request is a counted visit. With one
# client address (the default) each code's request is formatted once, before the run:
# formatting each one in `request` cost wrk more than the bare server's own work a request, so
# wrk was the bare server's limit. VISITORS > 1 spreads requests over that many addresses
# through X-Forwarded-For (the server must trust loopback as a proxy), which needs a request
# made for each visit.
random_codes_lua() {
  cat >"$1" <<LUA
local visitors = ${2:-1}
wrk.headers["User-Agent"] = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0"
local formatted = {}
function init(args)
  for i = 0, 9999 do formatted[i] = wrk.format("GET", string.format("/b%05d", i)) end
end
function request()
  local code = math.random(0, 9999)
  if visitors == 1 then return formatted[code] end
  wrk.headers["X-Forwarded-For"] = string.format("10.%d.%d.%d", math.random(0, 255),
    math.random(0, 255), math.random(0, visitors - 1) % 256)
  return wrk.format("GET", string.format("/b%05d", code))
end
LUA
}
