"""Tests of the reads: where players sit, a player's page, the one order of names and numbers."""
