"""Tests of in real Chromium: the tablet, the table, the hall, the layout of every page."""
