"""A six-handed Bräus session (teams of three, tables of six) written straight into the database,
for the tests of what reads one (documents, exports, fairness page, backup) independently of the
draw service.

The session is a plain rotation, not a fair draw: players in checked-in order (shuffled by
``seed``) make teams of three, the players left over (0 to 2) sit out the whole session, and in
each round the teams, rotated by the round number, sit at tables in pairs; with an odd number
of teams the last one sits the round out.
"""

from __future__ import annotations

import random

from scoring.models import Evening, Participant, Partnership, Player, Round, Seating, Session, Table


def draw_six_handed(evening: Evening, *, seed: int = 1, number: int = 1) -> Session:
    """Session ``number`` of ``evening`` in teams of three (see the module documentation)."""
    ids = list(
        Participant.objects.filter(evening=evening, checked_in=True)
        .order_by("player_id")
        .values_list("player_id", flat=True)
    )
    random.Random(seed).shuffle(ids)
    left_over = len(ids) % 3
    sitters, ids = ids[:left_over], ids[left_over:]
    session = Session.objects.create(
        evening=evening,
        number=number,
        seed=seed,
        sitout_player_id=sitters[0] if sitters else None,
        sitout_player_2_id=sitters[1] if len(sitters) > 1 else None,
    )
    teams = [
        Partnership.objects.create(
            session=session,
            number=k + 1,
            player_1_id=ids[3 * k],
            player_2_id=ids[3 * k + 1],
            player_3_id=ids[3 * k + 2],
        )
        for k in range(len(ids) // 3)
    ]
    tables = {t.number: t for t in evening.tables.all()}
    for n in range(1, len(teams) // 2 + 1):
        if n not in tables:
            tables[n] = Table.objects.create(evening=evening, number=n)
    for r in range(1, evening.rounds_per_session + 1):
        order = teams[r - 1 :] + teams[: r - 1]
        sitout = order.pop() if len(order) % 2 else None
        round_ = Round.objects.create(session=session, number=r, sitout_partnership=sitout)
        for t in range(len(order) // 2):
            Seating.objects.create(round=round_, table=tables[t + 1], team_a=order[2 * t], team_b=order[2 * t + 1])
    return session


def team_names(partnership: Partnership) -> list[str]:
    """The team's names in seat order (two or three)."""
    return [p.name for p in partnership.players]


def session_sitters(session: Session) -> list[Player]:
    """The players sitting out the whole session (0 to 2)."""
    return [p for p in (session.sitout_player, session.sitout_player_2) if p is not None]
