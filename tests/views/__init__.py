"""Tests of the pages: what users see, the live overview, bad input and fuzzing on every URL."""
