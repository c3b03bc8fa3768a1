#!/usr/bin/env bash
# Run a command against a throw-away PostgreSQL server (Debian's package), with DATABASE_URL set.
# Usage: scripts/with-postgres.sh .venv/bin/python -m pytest
# Installs postgresql with apt when it is missing (root, or sudo). The server listens on
# 127.0.0.1 only, lives in a temporary directory and is stopped and removed afterwards. No
# autovacuum: the tests empty the tables after every transactional test, and an autovacuum that
# analyses an emptied table makes the planner take it for empty for good; a later test with a few
# hundred rows then ran a join of a dozen tables as nested loops for minutes (seen with the
# backup test's query of every deal change).
set -euo pipefail

pg_bin() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1; }
if [ -z "$(pg_bin)" ]; then
  sudo_cmd=""; [ "$(id -u)" = 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq postgresql >/dev/null
fi
BIN=$(pg_bin)
PORT=${PGTEST_PORT:-54329}
WORK=$(mktemp -d /tmp/bruus-pg.XXXXXX)
as_owner() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
[ "$(id -u)" = 0 ] && chown postgres "$WORK"
cleanup() { as_owner "$BIN/pg_ctl" -D "$WORK/data" -m fast stop >/dev/null 2>&1 || true; rm -rf "$WORK"; }
trap cleanup EXIT
# SIGINT/SIGTERM: the server is stopped and removed too (once the command, which gets the signal
# as well, has ended).
trap 'exit 130' INT
trap 'exit 143' TERM
as_owner "$BIN/initdb" -D "$WORK/data" -A trust -U bruus -E UTF8 --locale=C.UTF-8 >/dev/null
as_owner "$BIN/pg_ctl" -D "$WORK/data" -l "$WORK/server.log" -w \
  -o "-k $WORK -p $PORT -c listen_addresses=127.0.0.1 -c fsync=off -c autovacuum=off" start >/dev/null
export DATABASE_URL="postgres://bruus@127.0.0.1:$PORT/postgres"
echo "PostgreSQL $("$BIN/postgres" --version | awk '{print $3}') on 127.0.0.1:$PORT"
"$@"
