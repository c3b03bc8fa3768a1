#!/usr/bin/env bash
# Serve Bruus Turnier for the hall's network: `bruus-turnier serve` (bruus_tournament/cli.py) with
# the checkout's virtualenv. Options and settings (PORT, LISTEN_ADDRESS, SERVER, WORKERS, THREADS,
# PUBLIC_BASE_URL, WIFI_NAME) as there: docs/settings-and-security.md.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=${VENV:-.venv}
exec "$VENV/bin/python" -m bruus_tournament serve "$@"
