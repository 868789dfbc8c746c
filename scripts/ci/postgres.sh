#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for tests: `start` prints DATABASE_URL=..., `stop` removes it.
#
#   scripts/ci/postgres.sh start    # initdb + pg_ctl start on 127.0.0.1, database rx_test
#   scripts/ci/postgres.sh stop     # stop the cluster and delete its directory
#   scripts/ci/postgres.sh url      # print DATABASE_URL=... of the running cluster
#
# initdb and pg_ctl refuse to run as root; as root they run as the `postgres` user.
# Settings: RX_PG_DIR (default /tmp/rx-ci-postgres), RX_PG_PORT (first port tried, default 55432).
# Durability is off (fsync, synchronous_commit, full_page_writes): test data only.
set -euo pipefail

base=${RX_PG_DIR:-/tmp/rx-ci-postgres}
first_port=${RX_PG_PORT:-55432}
db_name=rx_test
db_user=rx
db_password=rx

log() { printf '[postgres] %s\n' "$*" >&2; }
die() { log "$*"; exit 1; }

pg_bin() {
  local dir
  dir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
  if [[ -n "$dir" && -x "$dir/initdb" ]]; then
    printf '%s\n' "$dir"
  elif command -v initdb >/dev/null 2>&1; then
    dirname "$(readlink -f "$(command -v initdb)")"
  else
    die "initdb not found: install Debian's postgresql package (apt-get install postgresql)"
  fi
}

# Runs a PostgreSQL program as the cluster owner: `postgres` when we are root, else ourselves.
as_owner() {
  if [[ $(id -u) -eq 0 ]]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

port_in_use() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

url() { printf 'postgres://%s:%s@127.0.0.1:%s/%s\n' "$db_user" "$db_password" "$(cat "$base/port")" "$db_name"; }

running() {
  [[ -f "$base/port" && -d "$base/data" ]] && as_owner "$bin/pg_ctl" status -D "$base/data" >/dev/null 2>&1
}

start() {
  if running; then
    log "already running in $base"
    echo "DATABASE_URL=$(url)"
    return
  fi
  rm -rf "$base"
  mkdir -p "$base/socket"
  local port=$first_port
  while port_in_use "$port"; do
    port=$((port + 1))
    ((port < first_port + 100)) || die "no free port in $first_port..$((first_port + 99))"
  done
  echo "$port" >"$base/port"
  if [[ $(id -u) -eq 0 ]]; then
    id postgres >/dev/null 2>&1 || die "user postgres does not exist (install Debian's postgresql package)"
    chown -R postgres: "$base"
  fi
  chmod 700 "$base"

  local pwfile="$base/pwfile"
  printf 'postgres\n' >"$pwfile"
  [[ $(id -u) -eq 0 ]] && chown postgres: "$pwfile"
  log "initdb in $base/data"
  as_owner "$bin/initdb" -D "$base/data" -U postgres --pwfile="$pwfile" --auth-local=trust --auth-host=scram-sha-256 \
    --encoding=UTF8 --locale=C >"$base/initdb.log" 2>&1 || { cat "$base/initdb.log" >&2; die "initdb failed"; }
  rm -f "$pwfile"

  cat >>"$base/data/postgresql.conf" <<CONF
listen_addresses = '127.0.0.1'
port = $port
unix_socket_directories = '$base/socket'
max_connections = 200
fsync = off
synchronous_commit = off
full_page_writes = off
CONF

  log "starting on 127.0.0.1:$port"
  as_owner "$bin/pg_ctl" start -D "$base/data" -l "$base/server.log" -w -t 60 >/dev/null ||
    { cat "$base/server.log" >&2; die "pg_ctl start failed"; }

  as_owner "$bin/psql" -X -q -v ON_ERROR_STOP=1 -h "$base/socket" -p "$port" -U postgres -d postgres <<SQL
CREATE ROLE $db_user LOGIN PASSWORD '$db_password' CREATEDB;
CREATE DATABASE $db_name OWNER $db_user;
SQL
  echo "DATABASE_URL=$(url)"
}

stop() {
  if [[ -d "$base/data" ]]; then
    as_owner "$bin/pg_ctl" stop -D "$base/data" -m fast -w -t 60 >/dev/null 2>&1 || log "was not running"
  fi
  rm -rf "$base"
  log "stopped and removed $base"
}

bin=$(pg_bin)
case "${1:-}" in
  start) start ;;
  stop) stop ;;
  url) running || die "not running"; echo "DATABASE_URL=$(url)" ;;
  *) die "usage: $0 start|stop|url" ;;
esac
