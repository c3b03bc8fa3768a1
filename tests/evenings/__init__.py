"""Tests of whole evenings end to end, per rule set."""
