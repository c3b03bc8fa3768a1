"""``python -m bruus_tournament``: the same as the ``bruus-turnier`` command (bruus_tournament.cli)."""

import sys

from bruus_tournament.cli import main

sys.exit(main())
