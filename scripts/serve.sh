#!/usr/bin/env bash
# Serve Bruus Turnier for the hall's network: gunicorn + whitenoise, DEBUG off, reachable from the
# tablets on this machine's LAN addresses. Used by `make serve`; PORT defaults to 8000.
# PUBLIC_BASE_URL (the address printed on the QR codes and table cards) defaults to the first LAN
# address; WIFI_NAME (printed on the table cards) may be set in the environment or in .env.
# Refuses to start while a login has the demo password or no organiser login exists.
# WORKERS (default 4) and THREADS (default 4 per worker) size gunicorn (README "How far one laptop carries").
set -euo pipefail
cd "$(dirname "$0")/.."
PORT=${PORT:-8000}
VENV=${VENV:-.venv}
addresses=$(hostname -I 2>/dev/null | tr ' ' '\n' | grep -E '^[0-9]+\.[0-9]+\.[0-9]+\.[0-9]+$' | grep -v '^127\.' || true)
hosts="localhost,127.0.0.1"
origins="http://localhost:$PORT,http://127.0.0.1:$PORT"
for ip in $addresses; do hosts="$hosts,$ip"; origins="$origins,http://$ip:$PORT"; done
first=$(echo "$addresses" | head -n 1)
if [ -z "${PUBLIC_BASE_URL:-}" ] && [ -f .env ]; then
  PUBLIC_BASE_URL=$(sed -n 's/^PUBLIC_BASE_URL=//p' .env | tail -n 1 | tr -d "\"' ")
fi
if [ -z "${PUBLIC_BASE_URL:-}" ] && [ -n "$first" ]; then PUBLIC_BASE_URL="http://$first:$PORT"; fi
if [ -n "${PUBLIC_BASE_URL:-}" ]; then
  export PUBLIC_BASE_URL
  public_host=$(echo "$PUBLIC_BASE_URL" | sed -E 's#^[a-z]+://##; s#[:/].*$##')
  hosts="$hosts,$public_host"; origins="$origins,${PUBLIC_BASE_URL%/}"
fi
export DEBUG=false
export ALLOWED_HOSTS="${ALLOWED_HOSTS:-$hosts}"
export CSRF_TRUSTED_ORIGINS="${CSRF_TRUSTED_ORIGINS:-$origins}"
# A real club database is never the demo: stop here with a message saying what to do.
"$VENV/bin/python" manage.py startcheck -v0 || exit 1
"$VENV/bin/python" manage.py collectstatic --noinput -v0
echo "========================================================================"
echo "Bruus Turnier für das Hallennetz / for the hall's network:"
for ip in $addresses; do echo "  Tablets:            http://$ip:$PORT/tablet/"; done
echo "  Links und QR-Codes / links and QR codes: ${PUBLIC_BASE_URL:-Adresse des Browsers / address of the browser}"
echo "  Auf diesem Rechner: http://127.0.0.1:$PORT/organiser/"
echo "  Stoppen / stop: Strg+C / Ctrl+C"
echo "========================================================================"
exec "$VENV/bin/gunicorn" bruus_tournament.wsgi --config python:bruus_tournament.gunicorn_conf --bind "0.0.0.0:$PORT" \
  --worker-class gthread --workers "${WORKERS:-4}" --threads "${THREADS:-4}" --access-logfile - --log-level warning
