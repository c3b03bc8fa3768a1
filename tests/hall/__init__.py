"""Tests of who acts in the hall: roles, logins, table links and codes, guessing limits, where a
change came from."""
