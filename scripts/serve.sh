#!/usr/bin/env bash
# Serve Bruus Turnier for the hall's network: gunicorn + whitenoise, DEBUG off, reachable from the
# tablets on this machine's LAN addresses. Used by `make serve`; PORT defaults to 8000.
set -euo pipefail
cd "$(dirname "$0")/.."
PORT=${PORT:-8000}
VENV=${VENV:-.venv}
addresses=$(hostname -I 2>/dev/null | tr ' ' '\n' | grep -E '^[0-9]+\.[0-9]+\.[0-9]+\.[0-9]+$' | grep -v '^127\.' || true)
hosts="localhost,127.0.0.1"
origins="http://localhost:$PORT,http://127.0.0.1:$PORT"
for ip in $addresses; do hosts="$hosts,$ip"; origins="$origins,http://$ip:$PORT"; done
export DEBUG=false
export ALLOWED_HOSTS="${ALLOWED_HOSTS:-$hosts}"
export CSRF_TRUSTED_ORIGINS="${CSRF_TRUSTED_ORIGINS:-$origins}"
"$VENV/bin/python" manage.py collectstatic --noinput -v0
echo "========================================================================"
echo "Bruus Turnier für das Hallennetz / for the hall's network:"
for ip in $addresses; do echo "  Tablets:            http://$ip:$PORT/"; done
echo "  Auf diesem Rechner: http://127.0.0.1:$PORT/organiser/"
echo "  Stoppen / stop: Strg+C / Ctrl+C"
echo "========================================================================"
exec "$VENV/bin/gunicorn" bruus_tournament.wsgi --config python:bruus_tournament.gunicorn_conf --bind "0.0.0.0:$PORT" \
  --worker-class gthread --workers 2 --threads 8 --access-logfile - --log-level warning
