"""gunicorn settings shared by ``make serve`` (``scripts/serve.sh``) and the benchmarks.

gunicorn has no setting for its ``Server: gunicorn`` response header; it names the software
to anyone on the hall's network, so it is left out here (this file runs in the master process
before the workers are forked).
"""

import gc
import os
import sys

from gunicorn.http import wsgi

_default_headers = wsgi.Response.default_headers


def _without_server_header(self) -> list[str]:
    return [line for line in _default_headers(self) if not line.lower().startswith("server:")]


wsgi.Response.default_headers = _without_server_header  # type: ignore[method-assign]  # on purpose, see above

# A worker's threads share one interpreter lock. A thread back from the database waits for it
# up to the switch interval while another thread renders a page (Python's default: 5 ms), and
# a deal entry asks the database about 15 times. At 1 ms those waits shrink (README "How far one
# laptop carries"); the workers are forked from this process and inherit the setting.
sys.setswitchinterval(float(os.environ.get("GIL_SWITCH_INTERVAL", "0.001")))


def post_worker_init(worker) -> None:
    """After a worker has loaded the app (Django set up, every module imported): the objects
    alive now stay for the worker's whole life, so Python's garbage collector leaves them out
    of its full collections (``gc.freeze``). Each full collection otherwise walked them all,
    about 100 ms at a time during which the worker's other threads wait, several times a minute
    under load (README "How far one laptop carries")."""
    gc.collect()
    gc.freeze()
