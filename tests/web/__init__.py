"""Tests of the web layer: ETags and caches of the screens, the evening version, the login cache,
the evening's language, the guide."""
