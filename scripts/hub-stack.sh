#!/usr/bin/env bash
# The results site (the hub) served as on a server, on this machine's loopback address only:
# PostgreSQL (scripts/with-postgres.sh), Redis, two app processes (gunicorn, each its own process
# on its own port) and nginx in front of them (deploy/hub/nginx-site.conf). Runs COMMAND with the
# addresses exported, then stops and removes everything. docs/hub-serving.md.
#
# Usage: scripts/hub-stack.sh [COMMAND ARGS...]     (no command: serve until Ctrl+C)
#
# Settings (environment):
#   HUB_STACK_PORT  nginx's port (default 8480); PostgreSQL takes the next one, Redis the one after,
#                   the app processes the ones after that
#   HUB_APPS        app processes (default 2); HUB_WORKERS workers (default 2: one process left
#                   alone still uses two cores) and HUB_THREADS threads (default 4) in each
# COMMAND sees:
#   HUB_URL         http://127.0.0.1:PORT, the site through nginx
#   HUB_APP_PIDS    the app processes' ids (each leads its own process group: kill -KILL -- -PID
#                   stops one with its workers)
#   HUB_STACK_DIR   the stack's folder (logs: app-N.log, nginx/error.log, redis.log)
#   DATABASE_URL, REDIS_URL, DATA_DIR, BRUUS_ROLE=hub: the hub's settings, so that
#                   `bruus-turnier hub club add NAME` in COMMAND writes to this hub
# Installs postgresql, redis-server and nginx with apt when one is missing (root, or sudo).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
PY=${PY:-$ROOT/.venv/bin/python}
BASE=${HUB_STACK_PORT:-8480}

if [ -z "${HUB_STACK_INNER:-}" ]; then
  missing=()
  command -v redis-server >/dev/null 2>&1 || missing+=(redis-server)
  command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || missing+=(nginx)
  if [ ${#missing[@]} -gt 0 ]; then
    sudo_cmd=""; [ "$(id -u)" = 0 ] || sudo_cmd="sudo"
    $sudo_cmd apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "${missing[@]}" >/dev/null
  fi
  # PostgreSQL as the tests use it (a throw-away server, stopped and removed afterwards); this
  # script again inside it.
  HUB_STACK_INNER=1 PGTEST_PORT=$((BASE + 1)) exec "$ROOT/scripts/with-postgres.sh" "$0" "$@"
fi

NGINX=$(command -v nginx || echo /usr/sbin/nginx)
APPS=${HUB_APPS:-2}
WORK=$(mktemp -d /tmp/bruus-hub.XXXXXX)
chmod 755 "$WORK"  # nginx's workers read the static files below it
export HUB_STACK_DIR=$WORK
export BRUUS_ROLE=hub DEBUG=false DATA_DIR=$WORK/data
export REDIS_URL="redis://127.0.0.1:$((BASE + 2))/0"
export ALLOWED_HOSTS=127.0.0.1,localhost TRUSTED_PROXY_COUNT=1
export DJANGO_SETTINGS_MODULE=bruus_tournament.settings
export HUB_URL="http://127.0.0.1:$BASE"
mkdir -p "$DATA_DIR" "$WORK/nginx"

pids=()
cleanup() {
  # Last started first (nginx, the app processes, Redis), each with its process group; SIGINT is
  # the quick stop of all three (gunicorn's graceful one waits for nginx's idle connections).
  local i pid
  [ -z "${sleeper:-}" ] || kill -TERM "$sleeper" 2>/dev/null || true
  for ((i = ${#pids[@]} - 1; i >= 0; i--)); do
    pid=${pids[i]}
    kill -INT -- "-$pid" 2>/dev/null || kill -INT "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  done
  rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# wait_for PORT WHAT: until something listens on 127.0.0.1:PORT (at most 30 s).
wait_for() {
  local i
  for i in $(seq 300); do
    (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0
    sleep 0.1
  done
  echo "hub-stack: $2 did not start on port $1; its log:" >&2
  tail -n 30 "$3" >&2 || true
  exit 1
}

# Redis: memory only (the caches are rebuilt from the database), on loopback.
setsid redis-server --bind 127.0.0.1 --port $((BASE + 2)) --save "" --appendonly no \
  --dir "$WORK" --logfile "$WORK/redis.log" --maxmemory 256mb --maxmemory-policy allkeys-lru &
pids+=($!)
wait_for $((BASE + 2)) Redis "$WORK/redis.log"

# The database brought up to date and the static files collected (hashed, compressed), once, in
# one process (as `bruus-turnier serve` does).
(cd "$ROOT" && "$PY" -c "
import django; django.setup()
from django.core.management import call_command
from bruus_tournament import servers
call_command('migrate', interactive=False, verbosity=0)
servers.collect_static()") >"$WORK/setup.log" 2>&1 || { cat "$WORK/setup.log" >&2; exit 1; }

# The app processes: each one gunicorn (its own master, its own port, its own process group).
upstreams=""
app_pids=()
for n in $(seq "$APPS"); do
  port=$((BASE + 2 + n))
  (cd "$ROOT" && exec setsid "$PY" -m gunicorn bruus_tournament.wsgi --config python:bruus_tournament.gunicorn_conf \
    --bind "127.0.0.1:$port" --worker-class gthread --workers "${HUB_WORKERS:-2}" --threads "${HUB_THREADS:-4}" \
    --keep-alive 75 --log-level warning --error-logfile "$WORK/app-$n.log") &
  pids+=($!)
  app_pids+=($!)
  upstreams+="server 127.0.0.1:$port max_fails=1 fail_timeout=5s; "
done
for n in $(seq "$APPS"); do wait_for $((BASE + 2 + n)) "App process $n" "$WORK/app-$n.log"; done
export HUB_APP_PIDS="${app_pids[*]}"

# nginx: the site's template rendered for these ports and folders, in a main file of its own.
sed -e "s|@LISTEN@|127.0.0.1:$BASE|" -e "s|@UPSTREAMS@|$upstreams|" \
  -e "s|@STATIC_ROOT@|$DATA_DIR/static|" -e "s|@CACHE_DIR@|$WORK/nginx/cache|" \
  "$ROOT/deploy/hub/nginx-site.conf" >"$WORK/nginx/site.conf"
cat >"$WORK/nginx/nginx.conf" <<CONF
daemon off;
worker_processes 2;
pid $WORK/nginx/nginx.pid;
error_log $WORK/nginx/error.log warn;
events { worker_connections 4096; }
http {
    include /etc/nginx/mime.types;
    access_log off;
    client_body_temp_path $WORK/nginx/body;
    proxy_temp_path $WORK/nginx/proxy;
    fastcgi_temp_path $WORK/nginx/fastcgi;
    uwsgi_temp_path $WORK/nginx/uwsgi;
    scgi_temp_path $WORK/nginx/scgi;
    include $WORK/nginx/site.conf;
}
CONF
setsid "$NGINX" -p "$WORK/nginx" -c "$WORK/nginx/nginx.conf" -e "$WORK/nginx/error.log" &
pids+=($!)
wait_for "$BASE" nginx "$WORK/nginx/error.log"

echo "Results site (hub): $HUB_URL  (nginx, ${APPS} app processes ${HUB_APP_PIDS}, PostgreSQL, $REDIS_URL)"
if [ $# -eq 0 ]; then
  echo "Stop: Ctrl+C"
  # `wait` (unlike a command in the foreground) returns at once on SIGINT or SIGTERM: the trap runs.
  sleep infinity &
  sleeper=$!
  wait $sleeper
fi
status=0
"$@" || status=$?
exit $status
