#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for tests: initdb into a temp directory, listen on 127.0.0.1 at a
# free port with its unix socket inside that directory, create the database `engram_test`.
#
#   scripts/pg-cluster.sh start   prints `export ENGRAM_TEST_DATABASE_URL=…; export ENGRAM_PG_CLUSTER=…`
#   scripts/pg-cluster.sh stop    stops the cluster named by $ENGRAM_PG_CLUSTER and deletes it
#   scripts/pg-cluster.sh run -- CMD…   start, run CMD with the URL exported, stop (even on failure)
#   scripts/pg-cluster.sh halt DIR      stops the server of cluster DIR (fast shutdown), keeping its data
#   scripts/pg-cluster.sh resume DIR    starts it again on the same port (restart tests)
#
# PostgreSQL refuses to run as root: as root the cluster belongs to the `postgres` user (created
# when missing). Binaries are found on PATH or under /usr/lib/postgresql/*/bin.
set -euo pipefail

find_bin() {
  if command -v initdb >/dev/null 2>&1; then dirname "$(readlink -f "$(command -v initdb)")"; return; fi
  local dir
  dir="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)"
  if [[ -z "$dir" || ! -x "$dir/initdb" ]]; then
    echo "pg-cluster: no PostgreSQL server binaries (initdb) found; install Debian's postgresql" >&2
    exit 1
  fi
  echo "$dir"
}

as_owner() {
  if [[ "$(id -u)" == 0 ]]; then
    id postgres >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin postgres
    su postgres -s /bin/sh -c "$(printf '%q ' "$@")"
  else
    "$@"
  fi
}

free_port() {
  node -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"
}

start() {
  local bin dir port
  bin="$(find_bin)"
  dir="$(mktemp -d "${TMPDIR:-/tmp}/engram-pg.XXXXXX")"
  chmod 755 "$dir"
  [[ "$(id -u)" == 0 ]] && { id postgres >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin postgres; chown postgres "$dir"; }
  as_owner "$bin/initdb" -D "$dir/data" -U engram --auth=trust --encoding=UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 \
    || as_owner "$bin/initdb" -D "$dir/data" -U engram --auth=trust --encoding=UTF8 --no-locale >"$dir/initdb.log" 2>&1 \
    || { cat "$dir/initdb.log" >&2; exit 1; }
  port="$(free_port)"
  # fsync off: a throwaway cluster for tests (a crash loses it anyway); many connections for parallel test files.
  echo "-c listen_addresses=127.0.0.1 -p $port -k $dir -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300" >"$dir/opts"
  echo "$bin" >"$dir/bin"
  resume "$dir" >/dev/null
  # createdb is not always installed next to initdb (a minimal server install): node-postgres does it.
  node -e "const {Client}=require('pg');const c=new Client('postgres://engram@127.0.0.1:$port/postgres');c.connect().then(()=>c.query('CREATE DATABASE engram_test')).then(()=>c.end(),(e)=>{console.error(e.message);process.exit(1)})"
  echo "export ENGRAM_TEST_DATABASE_URL=postgres://engram@127.0.0.1:$port/engram_test"
  echo "export ENGRAM_PG_CLUSTER=$dir"
}

resume() {
  local dir="$1"
  as_owner "$(cat "$dir/bin")/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 -o "$(cat "$dir/opts")" start >/dev/null \
    || { cat "$dir/server.log" >&2; exit 1; }
}

halt() {
  local dir="$1"
  as_owner "$(cat "$dir/bin")/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null
}

stop() {
  local dir="${1:-${ENGRAM_PG_CLUSTER:-}}"
  if [[ -z "$dir" || ! -d "$dir/data" ]]; then echo "pg-cluster: no cluster to stop (ENGRAM_PG_CLUSTER unset)" >&2; return 0; fi
  as_owner "$(cat "$dir/bin")/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null || true
  rm -rf "$dir"
}

case "${1:-}" in
  start) start ;;
  stop) stop "${2:-}" ;;
  halt) halt "${2:?cluster directory}" ;;
  resume) resume "${2:?cluster directory}" ;;
  run)
    shift
    [[ "${1:-}" == "--" ]] && shift
    # A database given by the caller (CI's cluster, a developer's own server) is used as it is.
    if [[ -n "${ENGRAM_TEST_DATABASE_URL:-}" ]]; then exec "$@"; fi
    env="$(start)"
    eval "$env"
    trap 'stop "$ENGRAM_PG_CLUSTER"' EXIT
    "$@"
    ;;
  *) echo "usage: $0 start | stop [dir] | halt dir | resume dir | run -- command…" >&2; exit 2 ;;
esac
