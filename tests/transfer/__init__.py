"""Tests of files in and out: player lists, CSV and Excel downloads."""
