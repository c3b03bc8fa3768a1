#!/usr/bin/env python
"""Django's command-line utility for Bruus Turnier."""

import os
import sys


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bruus_tournament.settings")
    from django.core.exceptions import ImproperlyConfigured
    from django.core.management import execute_from_command_line

    try:
        execute_from_command_line(sys.argv)
    except ImproperlyConfigured as error:
        sys.stderr.write(f"Configuration error: {error}\n")
        sys.exit(2)


if __name__ == "__main__":
    main()
