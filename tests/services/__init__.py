"""Tests of the writes: draw, deals, confirmation, wishes, merge, rule sets, tie-breaks, seasons,
untrusted input."""
