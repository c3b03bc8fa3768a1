"""A register player's evenings (issue 13 item 4): place and total per evening, average per
session, partners, matchsticks from daring and striking, best evening, and the places for a
chart. A fixed number of queries, whatever the number of evenings and players.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

from django.db.models import Q

from scoring.domain.evening import evening_is_over
from scoring.models import Evening, Participant, Partnership, Player, Seating, Session, Substitution
from scoring.selectors.history import EveningHistory, evening_histories
from scoring.selectors.players import by_name
from scoring.selectors.ranking import PlayedFigures, RankingRow, evening_rankings


def player_evening_ids(player_id: int) -> set[int]:
    """Every evening a register entry took part in: on the evening's list, in a partnership, the
    session's sit-out players, leaving or replacing in a substitution (4 queries)."""
    evenings = set(Participant.objects.filter(player_id=player_id).values_list("evening_id", flat=True))
    evenings |= set(
        Partnership.objects.filter(
            Q(player_1_id=player_id) | Q(player_2_id=player_id) | Q(player_3_id=player_id)
        ).values_list("session__evening_id", flat=True)
    )
    evenings |= set(
        Session.objects.filter(Q(sitout_player_id=player_id) | Q(sitout_player_2_id=player_id)).values_list(
            "evening_id", flat=True
        )
    )
    evenings |= set(
        Substitution.objects.filter(Q(leaving_id=player_id) | Q(replacement_id=player_id)).values_list(
            "session__evening_id", flat=True
        )
    )
    return evenings


@dataclass(frozen=True)
class PlayedEvening:
    """One evening of a player; amounts in matchsticks.

    Attributes:
        evening: the Evening.
        row: the player's line of the evening's ranking; None for a stand-in (not ranked).
        ranked: how many players the evening ranks.
        total: the player's matchsticks, sit-out credit included (also for a stand-in).
        sessions_played: sessions in which the player played or sat out at least one round.
        deals_won: deals the player's team won; bonus: matchsticks from daring and striking of
            the player's teams.
        partners: (session number, partner) in session order.
    """

    evening: Evening
    row: RankingRow | None
    ranked: int
    total: Fraction
    sessions_played: int
    deals_won: int
    bonus: int
    partners: tuple[tuple[int, Player], ...]
    #: Every session drawn and every round confirmed: the place is final.
    finished: bool = True

    @property
    def place(self) -> int | None:
        return self.row.place if self.row is not None else None

    @property
    def average(self) -> Fraction | None:
        """Matchsticks per session played (None before any)."""
        return self.total / self.sessions_played if self.sessions_played else None


@dataclass(frozen=True)
class PlayerHistory:
    """Every evening a player played, by date, and what they add up to."""

    player: Player
    evenings: tuple[PlayedEvening, ...]

    @property
    def total(self) -> Fraction:
        return sum((e.total for e in self.evenings), Fraction(0))

    @property
    def sessions_played(self) -> int:
        return sum(e.sessions_played for e in self.evenings)

    @property
    def ranked_evenings(self) -> int:
        """Evenings the player was ranked in: what a season counts (DOMAIN.md: a stand-in plays
        but is not ranked, so an evening as stand-in is no result of the player's)."""
        return sum(1 for e in self.evenings if e.row is not None)

    @property
    def stand_in_evenings(self) -> int:
        """Evenings the player played as a stand-in (listed, not ranked, not counted by a season)."""
        return len(self.evenings) - self.ranked_evenings

    @property
    def average(self) -> Fraction | None:
        """Matchsticks per session over every session played (None before any)."""
        return self.total / self.sessions_played if self.sessions_played else None

    @property
    def bonus(self) -> int:
        return sum(e.bonus for e in self.evenings)

    @property
    def deals_won(self) -> int:
        return sum(e.deals_won for e in self.evenings)

    @property
    def partners(self) -> list[tuple[Player, int]]:
        """(partner, sessions together) of everyone the player partnered, most often first, then
        in the German alphabetical order."""
        counts = Counter(partner.pk for e in self.evenings for _, partner in e.partners)
        people = {partner.pk: partner for e in self.evenings for _, partner in e.partners}
        ordered = by_name(people.values())
        return sorted(((p, counts[p.pk]) for p in ordered), key=lambda item: -item[1])

    @property
    def best(self) -> PlayedEvening | None:
        """The best evening: the best place (ranked evenings that are over only: a place of an
        evening still running may change), then the higher total, then the earlier evening."""
        ranked = [e for e in self.evenings if e.place is not None and e.finished]
        if not ranked:
            return None
        return min(ranked, key=lambda e: (e.place, -e.total, e.evening.date, e.evening.pk))


def player_history(player: Player, evenings: Iterable[Evening] | None = None) -> PlayerHistory:
    """The evenings ``player`` played (a round at a table or sat out), by date, with the place in
    each evening's ranking (its own tie-break chain) and the figures of :class:`PlayedEvening`.

    ``evenings``: only these (e.g. a season's); default every evening of the player.
    Queries: 4 to find the evenings (none when given), 1 for them, 4 for their history, 1-2 for
    the rankings, 1 for partners not ranked (stand-ins); whatever the number of evenings.
    """
    if evenings is None:
        chosen = list(Evening.objects.filter(pk__in=player_evening_ids(player.pk)))
    else:
        chosen = list(evenings)
    histories = evening_histories(chosen)
    rankings = evening_rankings(chosen, histories)
    known = {row.player.pk: row.player for rows in rankings.values() for row in rows}
    partner_ids = {pid for e in chosen for _, pid in _partners(histories[e.pk], player.pk)}
    missing = partner_ids - set(known)
    if missing:
        known.update(Player.objects.in_bulk(list(missing)))
    finished = finished_evening_ids(chosen)
    played = []
    for evening in sorted(chosen, key=lambda e: (e.date, e.pk)):
        history = histories[evening.pk]
        sessions = {r.session for r in history.rounds if player.pk in r.seated or player.pk in r.sitters}
        if not sessions:
            continue
        figures = PlayedFigures.of(evening, history)
        rows = rankings[evening.pk]
        played.append(
            PlayedEvening(
                evening=evening,
                row=next((row for row in rows if row.player.pk == player.pk), None),
                ranked=len(rows),
                total=sum(figures.scores[player.pk], Fraction(0)),
                sessions_played=len(sessions),
                deals_won=figures.deals_won[player.pk],
                bonus=figures.bonus[player.pk],
                partners=tuple((number, known[pid]) for number, pid in _partners(history, player.pk)),
                finished=evening.pk in finished,
            )
        )
    return PlayerHistory(player=player, evenings=tuple(played))


def finished_evening_ids(evenings: Iterable[Evening]) -> set[int]:
    """The evenings among ``evenings`` that are over: every session drawn and every round of
    them confirmed (2 queries, whatever the number of evenings)."""
    chosen = {e.pk: e for e in evenings}
    drawn = Counter(Session.objects.filter(evening_id__in=chosen).values_list("evening_id", flat=True))
    running = set(
        Seating.objects.filter(round__session__evening_id__in=chosen, confirmed_at__isnull=True).values_list(
            "round__session__evening_id", flat=True
        )
    )
    return {
        pk
        for pk, e in chosen.items()
        if evening_is_over(
            sessions_planned=e.sessions_count, sessions_drawn=drawn[pk], tables_confirmed=[pk not in running]
        )
    }


def _partners(history: EveningHistory, player_id: int) -> list[tuple[int, int]]:
    """(session number, partner id) of the player in one evening, in session order: the other
    player of the player's team at a table or in the round's sit-out partnership (a replacement
    who took over in a session is a partner too)."""
    seen: dict[tuple[int, int], None] = {}
    for r in history.rounds:
        teams = [team for t in r.tables for team in (t.team_a, t.team_b)]
        if r.sitout_team is not None:
            teams.append(r.sitout_team)
        for team in teams:
            if player_id in team:
                for other in team:
                    if other != player_id:
                        seen[(r.session, other)] = None
    return sorted(seen)
