"""The reads of the table's tablet (scoring.selectors.table_entry)."""

from __future__ import annotations

import pytest

from scoring import selectors, services
from scoring.models import Seating, Table


@pytest.mark.django_db
def test_a_table_without_a_round_of_its_own_sees_the_next_session_drawn(roster_evening):
    """The fingerprint of a table that plays in no round (its query returns no row, so the
    latest session comes from a second query) still changes when a session is drawn: its
    tablet moves on from "not drawn yet"."""
    table = Table.objects.create(evening=roster_evening, number=99)
    before = selectors.table_signature(table)
    assert selectors.table_signature(table) == before
    services.draw_session(evening=roster_evening, seed=1)
    assert not Seating.objects.filter(table=table).exists()
    assert selectors.table_signature(table) != before
