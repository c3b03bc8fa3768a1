"""Reads for the check-in page (issue 28, point 3): the last evening to copy the attendance from,
whether enough players are present to draw, and where a player who arrives after the draw stands."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from scoring.models import Deal, Evening, Participant, Partnership, Seating, Session


def last_evening(evening: Evening) -> Evening | None:
    """The evening before ``evening`` whose attendance "wie beim letzten Abend" copies: the one with
    the latest date before it (on the same date: the one created earlier) that has players present.
    None when there is none (1 query)."""
    earlier = Evening.objects.filter(participants__checked_in=True).exclude(pk=evening.pk).distinct()
    earlier = earlier.filter(date__lt=evening.date) | earlier.filter(date=evening.date, pk__lt=evening.pk)
    return earlier.order_by("-date", "-pk").first()


@dataclass(frozen=True)
class LateArrival:
    """The evening's last drawn session while it is not over, and who is present without a seat in it.

    ``started``: deals of the session are entered (only "replace a player who leaves" can seat
    someone now); otherwise two players can still be swapped (or the session drawn again).
    ``next_session``: the number of the next session, None when this one is the evening's last.
    ``unseated``: the ids of the players checked in who neither play in it nor sit it out."""

    session: Session
    started: bool
    next_session: int | None
    unseated: frozenset[int]


def late_arrivals(evening: Evening) -> LateArrival | None:
    """The session under way and the players present without a seat in it; None before the first
    draw and once the last drawn session is confirmed (at most 5 queries, whatever the field)."""
    session = evening.sessions.order_by("-number").first()
    if session is None or not Seating.objects.filter(round__session=session, confirmed_at__isnull=True).exists():
        return None
    seated = set(session.sitout_player_ids)
    for row in Partnership.objects.filter(session=session).values_list("player_1_id", "player_2_id", "player_3_id"):
        seated.update(pk for pk in row if pk)
    present = set(Participant.objects.filter(evening=evening, checked_in=True).values_list("player_id", flat=True))
    return LateArrival(
        session=session,
        started=Deal.objects.filter(seating__round__session=session).exists(),
        next_session=session.number + 1 if session.number < evening.sessions_count else None,
        unseated=frozenset(present - seated),
    )


def drawn_player_ids(evening: Evening) -> set[int]:
    """Every player in a partnership or sitting out a session of the evening (2 queries)."""
    ids: set[int] = set()
    for row in Partnership.objects.filter(session__evening=evening).values_list(
        "player_1_id", "player_2_id", "player_3_id"
    ):
        ids.update(pk for pk in row if pk)
    for sitters in Session.objects.filter(evening=evening).values_list("sitout_player_id", "sitout_player_2_id"):
        ids.update(pk for pk in sitters if pk)
    return ids


def undoable_check_ins(evening: Evening, player_ids: Iterable[int]) -> list[int]:
    """Of the players a bulk check-in checked in (``player_ids``), those its undo would check out
    now, in id order: still checked in (not checked out by hand since) and not drawn into a
    session of the evening (3 queries)."""
    ids = {int(pk) for pk in player_ids}
    drawn = drawn_player_ids(evening)
    return sorted(
        Participant.objects.filter(evening=evening, player_id__in=ids - drawn, checked_in=True).values_list(
            "player_id", flat=True
        )
    )
