"""The evening as a whole: when it is over.

An evening is over when every session of its format is drawn and every round of them is
confirmed at every table: after the last session's last confirmation the tablets, "Where do I
sit?" and the projector say so and show (or link) the final ranking, and no round clock runs.
"""

from __future__ import annotations

from collections.abc import Iterable


def evening_is_over(*, sessions_planned: int, sessions_drawn: int, tables_confirmed: Iterable[bool]) -> bool:
    """Whether the evening is over.

    Args:
        sessions_planned: the sessions of the evening's format (``Evening.sessions_count``).
        sessions_drawn: the sessions drawn so far.
        tables_confirmed: for every table of every round drawn, whether it is confirmed.

    Returns:
        True once at least the planned sessions are drawn and every table of every round is
        confirmed; False before the first draw (whatever the format).
    """
    return sessions_drawn > 0 and sessions_drawn >= sessions_planned and all(tables_confirmed)
