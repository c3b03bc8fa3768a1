"""Setting the app up: the checks before a served app starts (``startup``) and the demo evening of
``make run`` (``demo``)."""
