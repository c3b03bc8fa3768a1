"""gunicorn settings shared by ``make serve`` (``scripts/serve.sh``) and the benchmarks.

gunicorn has no setting for its ``Server: gunicorn`` response header; it names the software
to anyone on the hall's network, so it is left out here (this file runs in the master process
before the workers are forked).
"""

from gunicorn.http import wsgi

_default_headers = wsgi.Response.default_headers


def _without_server_header(self) -> list[str]:
    return [line for line in _default_headers(self) if not line.lower().startswith("server:")]


wsgi.Response.default_headers = _without_server_header
