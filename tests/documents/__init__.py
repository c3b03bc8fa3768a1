"""Tests of the printed documents (PDF)."""
