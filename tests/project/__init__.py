"""Tests of the project itself: the command line, the wheel, settings, start checks, processes,
docs, layers, limits."""
