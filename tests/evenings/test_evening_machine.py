"""A model-based test of the whole evening: Hypothesis's stateful testing drives the
services as the organiser's pages and the tablets do, in any order, and after every step checks
what a club would notice if it went wrong.

The steps (rules of :class:`EveningMachine`): check-in and check-out, late arrivals, stand-ins,
everyone at once and its undo; draws and draws again; swaps and replacements; deals entered and
corrected at the table and by the organiser (valid inputs from :mod:`scoring.setup.builders`);
finishing, disputing ("Stimmt nicht"), reopening and confirming a round; locking and unlocking;
the clock's buttons and its end; closing a session; the evening going on (the next session
drawn and whole rounds played at once, so that the machine reaches the end of the evening); a
backup restored as a copy, and one restored into an empty database. Hypothesis enables a
different subset of the steps in each example, so ``test_an_evening_played_to_its_end`` also
plays one evening of the same steps in a fixed order to its end.

The invariants, computed here from the rows and the machine's own model, never from the
selectors under test:

- the ranked players are exactly those the rule names: once a session is drawn, everybody seated
  or sitting out in one of its rounds (checked in when the session was drawn, or drawn as a
  replacement), checked out since or not; before the first draw, everybody checked in; stand-ins
  never;
- each player's session values and total equal the deals entered (scored here by the Schwesing
  rules, written out independently) plus the sit-out credit (the exact average of the teams at
  the tables that have finished the round), and the places follow the totals (1, 2, 2, 4);
- nobody sits twice in a round (not at two tables, not at a table and sitting out);
- the evening's versions (``version``, ``seating_version``) never go down, and ``version`` goes up
  with every change a page shows;
- no clock runs (or waits paused) for a round every table has confirmed;
- once the last session's last round is confirmed, the evening is over: no clock counts, every
  table's page and "Wo sitze ich?" say so;
- the season counts the evening for exactly the ranked players, with their totals, and a player's
  own page lists it, ranked, exactly then;
- every page of the evening (organiser, tablet, projector, public) answers without a server error;
- a backup restored into an empty database, and one restored as a copy, rank alike.

``make test`` runs a bounded number of examples (the same each run, no shrinking);
``BRUUS_LONG_MACHINE=1`` runs many more, longer evenings, with fresh random choices each run and
a failure shrunk to its shortest steps (for the nights before a release; docs/architecture.md,
"Tests").
"""

from __future__ import annotations

import os
import random
from collections import Counter, defaultdict
from dataclasses import dataclass
from datetime import date, timedelta
from fractions import Fraction

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.core.cache import caches
from django.db import transaction
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from scoring import backup, services
from scoring.domain import clock as clock_domain
from scoring.domain.errors import DomainError
from scoring.domain.rules import TEAMS, DealResult
from scoring.hall.origin import Origin
from scoring.hall.roles import LEADER
from scoring.models import Deal, Evening, Participant, Partnership, Round, Seating, Session, Table
from scoring.selectors.player_history import player_history
from scoring.selectors.ranking import evening_ranking
from scoring.selectors.season import season_ranking
from scoring.selectors.table_entry import current_seating
from scoring.setup.builders import random_result
from scoring.web import screen_cache
from tests.conftest import make_login

#: ``BRUUS_LONG_MACHINE=1``: the long run for the nights before a release (200 evenings; a larger
#: number: that many evenings).
_LONG = os.environ.get("BRUUS_LONG_MACHINE", "").strip()
LONG = _LONG not in ("", "0")
LONG_EXAMPLES = int(_LONG) if _LONG.isdigit() and int(_LONG) > 1 else 200

#: The register: players 1 to POOL; the machine checks in some of them at the start, the others
#: may arrive late.
POOL = 12
#: What the examples did: "service: done" or "service: refused (code)", and the evenings that ended.
SEEN: Counter[str] = Counter()
SESSIONS, ROUNDS, DEALS = 3, 3, 2

players_at = st.integers(0, POOL - 1)
any_index = st.integers(0, 40)  # an index into a list of the moment (seatings, rounds), taken modulo its length
seeds = st.integers(0, 2**32 - 1)
teams = st.sampled_from(TEAMS)


def schwesing_points(result: DealResult) -> tuple[int, int]:
    """A deal's matchsticks by the Schwesing rules, written out here: one to the team that reaches
    five tricks (two to nil), plus each team's daring and striking."""
    base = 2 if result.to_nil else 1
    return (
        result.bonus_a + (base if result.winner == "A" else 0),
        result.bonus_b + (base if result.winner == "B" else 0),
    )


def ranking_lines(evening: Evening) -> dict[tuple[str, str], tuple]:
    """The evening's ranking as (name, club) -> (place, shared, session values, total)."""
    return {
        (row.player.name, row.player.club): (row.place, row.shared, tuple(row.sessions), row.total)
        for row in evening_ranking(evening)
    }


@dataclass
class Draw:
    """The evening's draw as stored, read once per step: its sessions (by number), every team
    (id -> player ids), every round with its seatings, every seating (by session, round, table)."""

    sessions: list[Session]
    teams: dict[int, tuple[int, ...]]
    rounds: list[tuple[Round, list[Seating]]]
    seatings: list[Seating]


def drawn(machine: EveningMachine) -> bool:
    """A rule's precondition: a session is drawn (else it has nothing to act on)."""
    return machine.sessions_drawn > 0


class EveningMachine(RuleBasedStateMachine):
    """One evening of 3 sessions × 3 rounds × 2 deals, with up to 12 players, played through the
    services. Each example runs in a savepoint of the test's transaction, rolled back at its end."""

    def __init__(self):
        super().__init__()
        self._atomic = transaction.atomic()
        self._atomic.__enter__()
        for alias in ("default", "screens", "sessions"):  # ids come back after the rollback
            caches[alias].clear()
        self.organiser = make_login(get_user_model(), "leitung", LEADER)
        self.desk = Client()
        self.desk.force_login(self.organiser)
        self.public = Client()
        self.evening = services.create_evening(
            name="Maschinenabend",
            date=date(2026, 11, 27),
            sessions_count=SESSIONS,
            rounds_per_session=ROUNDS,
            deals_per_round=DEALS,
        )
        self.players = [services.add_player(name=f"Spieler {n}", club=f"Verein {n % 3}")[0] for n in range(1, POOL + 1)]
        self.season = services.save_season(name="Saison", year=2026, scoring="sum", evening_ids=[self.evening.pk])
        # The machine's own model of the evening.
        self.on_list: set[int] = set()  # players with a place on the evening's list
        self.checked_in: set[int] = set()
        self.stand_ins: set[int] = set()
        self.deals: dict[tuple[int, int], tuple[int, int]] = {}  # (seating id, deal number) -> matchsticks
        self.bulk: list[int] = []  # the players the last "everyone present" checked in (its undo)
        self.versions = (self.evening.version, self.evening.seating_version)
        self.last_lines: dict | None = None
        self.page_turn = 0
        self.steps = 0
        self.sessions_drawn = 0
        self.totals: dict[int, Fraction] = {}

    def teardown(self):
        try:
            if self.steps:  # every page once at the end of each example, the ranking's downloads too
                pk = self.evening.pk
                ranking = reverse("organiser:ranking", args=[pk])
                downloads = [
                    (self.desk, reverse("organiser:ranking_pdf", args=[pk])),
                    (self.desk, ranking + "?_export=csv"),
                ]
                self._check_pages(self._pages() + downloads)
        finally:
            transaction.set_rollback(True)
            self._atomic.__exit__(None, None, None)

    # --- helpers ------------------------------------------------------------------------------

    def _try(self, action, *args, **kwargs):
        """Call a service; a refusal (a DomainError with its message) is an answer, not a failure:
        returns (True, result) or (False, None)."""
        name = getattr(action, "__name__", "?")
        try:
            result = True, action(*args, **kwargs)
            SEEN[f"{name}: done"] += 1
            return result
        except DomainError as error:
            SEEN[f"{name}: refused ({error.code})"] += 1
            return False, None

    def _sessions(self) -> list[Session]:
        sessions = list(Session.objects.filter(evening=self.evening).order_by("number"))
        self.sessions_drawn = len(sessions)
        return sessions

    def _seatings(self, session: Session | None = None) -> list[Seating]:
        seatings = Seating.objects.filter(round__session__evening=self.evening).select_related(
            "table", "round__session"
        )
        if session is not None:
            seatings = seatings.filter(round__session=session)
        return list(seatings.order_by("round__session__number", "round__number", "table__number"))

    def _tables(self) -> list[Table]:
        return list(Table.objects.filter(evening=self.evening).order_by("number"))

    def _pick(self, items: list, index: int):
        return items[index % len(items)] if items else None

    def _enter(self, seating: Seating, number: int, result: DealResult, **how) -> bool:
        done, _ = self._try(services.enter_deal, seating_id=seating.pk, number=number, result=result, **how)
        if done:
            self.deals[(seating.pk, number)] = schwesing_points(result)
        return done

    def _as_organiser(self) -> dict:
        return {"user": self.organiser, "origin": Origin.organiser(self.organiser)}

    # --- check-in, stand-ins -----------------------------------------------------------------

    @initialize(count=st.integers(8, POOL))
    def check_in_the_field(self, count):
        for player in self.players[:count]:
            services.set_checked_in(evening=self.evening, player=player, checked_in=True)
            self.on_list.add(player.pk)
            self.checked_in.add(player.pk)

    @rule(index=players_at, present=st.booleans())
    def check_in_or_out(self, index, present):
        """A late arrival checked in, a player who goes home checked out (the guide's way)."""
        player = self.players[index]
        done, _ = self._try(services.set_checked_in, evening=self.evening, player=player, checked_in=present)
        if done:
            self.on_list.add(player.pk)
            (self.checked_in.add if present else self.checked_in.discard)(player.pk)

    @rule(index=players_at, stand_in=st.booleans())
    def stand_in(self, index, stand_in):
        player = self.players[index]
        done, _ = self._try(services.set_stand_in, evening=self.evening, player=player, stand_in=stand_in)
        if done:
            if player.pk not in self.on_list:
                self.checked_in.add(player.pk)
            self.on_list.add(player.pk)
            (self.stand_ins.add if stand_in else self.stand_ins.discard)(player.pk)

    @rule()
    def everyone_present(self):
        done, changed = self._try(services.check_in_everyone, evening_id=self.evening.pk)
        if done:
            self.bulk = list(changed)
            self.on_list |= set(changed)
            self.checked_in |= set(changed)

    @precondition(lambda self: self.bulk)
    @rule()
    def undo_everyone_present(self):
        done, going = self._try(services.undo_check_in, evening_id=self.evening.pk, player_ids=self.bulk)
        if done:
            self.checked_in -= set(going)
            self.bulk = []

    # --- the draw and changes to a session ---------------------------------------------------

    @rule(seed=seeds)
    def draw_next_session(self, seed):
        self._try(services.draw_session, evening=self.evening, user=self.organiser, seed=seed)

    @precondition(drawn)
    @rule(seed=seeds)
    def draw_again(self, seed):
        sessions = self._sessions()
        if sessions:
            self._try(services.redraw_session, session_id=sessions[-1].pk, user=self.organiser, seed=seed)

    def _playing_and_free(self) -> tuple[list[int], list[int]]:
        """The last session's players (seated or sitting out in a round of it), and the players
        checked in who could come in (session sit-out players, late arrivals, stand-ins)."""
        session = self._sessions()[-1]
        playing = sorted({pid for team in session.partnerships.all() for pid in team.player_ids})
        free = sorted((self.checked_in - set(playing)) | set(session.sitout_player_ids))
        return playing, free

    @precondition(drawn)
    @rule(a=any_index, b=any_index, sensible=st.booleans())
    def swap(self, a, b, sensible):
        """Two players swap places before play (a drawn one with a late arrival, or two drawn)."""
        playing, free = self._playing_and_free()
        first = self._pick(playing, a)
        second = self._pick(free if sensible and free else playing, b)
        self._try(
            services.swap_players,
            session_id=self._sessions()[-1].pk,
            player_a_id=first,
            player_b_id=second,
            user=self.organiser,
        )

    @precondition(drawn)
    @rule(leaving=any_index, replacement=any_index, sensible=st.booleans())
    def replace(self, leaving, replacement, sensible):
        """A player has to leave during the session; a free player (or, refused, anyone) takes over."""
        playing, free = self._playing_and_free()
        leaver = self._pick(playing, leaving)
        comes = self._pick(free if sensible and free else self.players, replacement)
        comes = comes if isinstance(comes, int) else comes.pk
        done, _ = self._try(
            services.replace_player,
            session_id=self._sessions()[-1].pk,
            leaving_id=leaver,
            replacement_id=comes,
            user=self.organiser,
        )
        if done:
            self.checked_in.discard(leaver)

    # --- at the table ------------------------------------------------------------------------

    @precondition(drawn)
    @rule(table=any_index, number=st.integers(1, DEALS), seed=seeds)
    def tablet_enters_deal(self, table, number, seed):
        """The table's scorer enters (or corrects) a deal of the table's current round."""
        table = self._pick(self._tables(), table)
        seating = current_seating(table) if table else None
        if seating is not None:
            origin = Origin.table_link(table.number)
            self._enter(seating, number, random_result(random.Random(seed)), origin=origin, table=table)

    @precondition(drawn)
    @rule(seating=any_index, number=st.integers(1, DEALS), seed=seeds, reason=st.sampled_from(["", "Zettel"]))
    def organiser_enters_deal(self, seating, number, seed, reason):
        """The organiser types in or corrects a deal of any round (a confirmed one with a reason)."""
        seating = self._pick(self._seatings(), seating)
        if seating is not None:
            self._enter(seating, number, random_result(random.Random(seed)), reason=reason, **self._as_organiser())

    @precondition(drawn)
    @rule(table=any_index, team=teams, seed=seeds, dispute=st.booleans())
    def tablet_plays_its_round(self, table, team, seed, dispute):
        """A table plays its current round as the guide says: the scorer enters every deal and
        finishes the round, the other team disputes it ("Stimmt nicht") and the scorer corrects a
        deal and finishes again, or confirms at once."""
        table = self._pick(self._tables(), table)
        seating = current_seating(table)
        if seating is None:
            return
        rng = random.Random(seed)
        origin = Origin.table_link(table.number, team)
        for number in range(1, DEALS + 1):
            if (seating.pk, number) not in self.deals:
                self._enter(seating, number, random_result(rng), origin=origin, table=table)
        self._try(services.mark_seating_entered, seating_id=seating.pk, table=table, team=team)
        other = "B" if team == "A" else "A"
        if dispute:
            self._try(services.reopen_seating, seating_id=seating.pk, table=table)
            self._enter(seating, DEALS, random_result(rng), origin=origin, table=table)
            self._try(services.mark_seating_entered, seating_id=seating.pk, table=table, team=team)
        self._try(
            services.confirm_seating,
            seating_id=seating.pk,
            team=other,
            table=table,
            origin=Origin.table_link(table.number, other),
        )

    @precondition(drawn)
    @rule(table=any_index, team=teams)
    def tablet_finishes_round(self, table, team):
        table = self._pick(self._tables(), table)
        seating = current_seating(table) if table else None
        if seating is not None:
            self._try(services.mark_seating_entered, seating_id=seating.pk, table=table, team=team)

    @precondition(drawn)
    @rule(table=any_index)
    def other_team_disputes(self, table):
        """ "Stimmt nicht": the round goes back to the scorer."""
        table = self._pick(self._tables(), table)
        seating = current_seating(table) if table else None
        if seating is not None:
            self._try(services.reopen_seating, seating_id=seating.pk, table=table)

    @precondition(drawn)
    @rule(table=any_index, team=teams)
    def other_team_confirms(self, table, team):
        table = self._pick(self._tables(), table)
        seating = current_seating(table) if table else None
        if seating is not None:
            self._try(
                services.confirm_seating,
                seating_id=seating.pk,
                team=team,
                table=table,
                origin=Origin.table_link(table.number, team),
            )

    @precondition(drawn)
    @rule(seating=any_index, team=teams)
    def organiser_confirms(self, seating, team):
        seating = self._pick(self._seatings(), seating)
        if seating is not None:
            self._try(services.confirm_seating, seating_id=seating.pk, team=team, **self._as_organiser())

    @rule(seed=seeds, with_clock=st.booleans(), rounds=st.integers(1, ROUNDS))
    def evening_goes_on(self, seed, with_clock, rounds):
        """The evening goes on: the next session drawn when the last one is over (or none is drawn
        yet), then every table plays the first ``rounds`` rounds not yet confirmed, to the end (the
        organiser types in what is missing and confirms), their clock started first or not: the
        machine reaches the evening's end."""
        sessions = self._sessions()
        if not sessions or not any(s.confirmed_at is None for s in self._seatings(sessions[-1])):
            self._try(services.draw_session, evening=self.evening, user=self.organiser, seed=seed)
        for offset in range(rounds):
            self._round_played(random.Random(seed + offset), with_clock)

    def _round_played(self, rng: random.Random, with_clock: bool):
        sessions = self._sessions()
        if not sessions:
            return
        open_seatings = [s for s in self._seatings(sessions[-1]) if s.confirmed_at is None]
        if not open_seatings:
            return
        first = min(s.round.number for s in open_seatings)
        if with_clock:
            round_id = next(s.round_id for s in open_seatings if s.round.number == first)
            self._try(services.start_round_clock, evening_id=self.evening.pk, round_id=round_id, user=self.organiser)
        for seating in (s for s in open_seatings if s.round.number == first):
            for number in range(1, DEALS + 1):
                if (seating.pk, number) not in self.deals:
                    self._enter(seating, number, random_result(rng), **self._as_organiser())
            self._try(services.enter_and_confirm_seating, seating_id=seating.pk)

    # --- the organiser's controls ------------------------------------------------------------

    @precondition(drawn)
    @rule(index=any_index, locked=st.booleans())
    def lock_round(self, index, locked):
        round_ = self._pick(list(Round.objects.filter(session__evening=self.evening).order_by("pk")), index)
        if round_ is not None:
            self._try(services.set_round_locked, round_id=round_.pk, locked=locked)

    @precondition(drawn)
    @rule(index=any_index, closed=st.booleans())
    def close_session(self, index, closed):
        session = self._pick(self._sessions(), index)
        if session is not None:
            self._try(services.set_session_closed, session_id=session.pk, closed=closed)

    @rule(
        button=st.sampled_from(["start", "pause", "resume", "extend", "restart", "break", "stop", "time_up"]),
        index=any_index,
        locks=st.booleans(),
    )
    def clock_button(self, button, index, locks):
        evening_id, user = self.evening.pk, self.organiser
        if button == "start":
            round_ = self._pick(list(Round.objects.filter(session__evening=self.evening).order_by("pk")), index)
            if round_ is not None:
                self._try(services.start_round_clock, evening_id=evening_id, round_id=round_.pk, user=user)
        elif button == "time_up":  # the clock's end, settled by the next request (with the lock at zero or not)
            self._try(
                services.set_clock_lengths,
                evening_id=evening_id,
                round_minutes=30,
                break_minutes=10,
                locks_round=locks,
                user=user,
            )
            services.settle_round_clock(evening_id=evening_id, now=timezone.now() + timedelta(hours=4))
        else:
            action = {
                "pause": services.pause_round_clock,
                "resume": services.resume_round_clock,
                "restart": services.restart_round_clock,
                "break": services.start_break_clock,
                "stop": services.stop_round_clock,
                "extend": lambda **kw: services.extend_round_clock(minutes=5, **kw),
            }[button]
            self._try(action, evening_id=evening_id, user=user)

    # --- backups -----------------------------------------------------------------------------

    @precondition(lambda self: self.steps % 4 == 3)
    @rule()
    def backup_restored_as_copy(self):
        """The organiser restores the evening's backup as a copy: it ranks as the evening does."""
        outcome = backup.restore(backup.export_evening(self.evening), allow_duplicates=True)
        copy = outcome.evenings[0]
        assert ranking_lines(copy) == ranking_lines(self.evening)

    @precondition(lambda self: self.steps % 4 == 1)
    @rule()
    def backup_into_an_empty_database(self):
        """The evening's backup restored into an empty database (in a savepoint, rolled back)."""
        self._check_backup_into_empty_database()

    def _check_backup_into_empty_database(self):
        self.evening.refresh_from_db()
        expected = ranking_lines(self.evening)
        document = backup.export_evening(self.evening)
        with transaction.atomic():
            for _, model, _ in reversed(backup.MODELS):  # what refers to a row goes before it
                model.objects.all().delete()
            assert not any(model.objects.exists() for model in apps.get_app_config("scoring").get_models())
            restored = backup.restore(document).evenings[0]
            assert ranking_lines(restored) == expected
            transaction.set_rollback(True)

    # --- the invariants ----------------------------------------------------------------------

    @invariant()
    def everything_holds(self):
        self.steps += 1
        self.evening.refresh_from_db()
        lines = self._page_state()
        self._check_versions(lines)
        self._check_the_list(lines)
        self._check_deals()
        draw = self._draw()
        drawn = self._check_nobody_sits_twice(draw)
        ranked = self._check_ranking(drawn, draw)
        self._check_season_and_player_page(ranked)
        self._check_clock()
        self._check_the_end(draw)
        pages = self._pages(draw)
        turn = self.page_turn
        self.page_turn += 3
        self._check_pages([pages[(turn + k) % len(pages)] for k in range(3)])

    def _draw(self) -> Draw:
        """The evening's draw as it is stored, read once per step for the checks that need it."""
        sessions = self._sessions()
        stored = Partnership.objects.filter(session__evening=self.evening)
        teams = {team.pk: team.player_ids for team in stored}
        seatings = self._seatings()
        at_round: dict[int, list[Seating]] = defaultdict(list)
        for seating in seatings:
            at_round[seating.round_id].append(seating)
        rounds = [
            (round_, at_round[round_.pk])
            for round_ in Round.objects.filter(session__evening=self.evening).select_related("session").order_by("pk")
        ]
        return Draw(sessions, teams, rounds, seatings)

    def _check_versions(self, lines: tuple):
        now = (self.evening.version, self.evening.seating_version)
        assert now[0] >= self.versions[0] and now[1] >= self.versions[1], (self.versions, now)
        if self.last_lines is not None and lines != self.last_lines:
            assert now[0] > self.versions[0], "a change the pages show without a new evening version"
        self.versions, self.last_lines = now, lines

    def _page_state(self) -> tuple:
        """What the evening's pages show, in rows: who is on the list, the draw, every deal, the
        state of every round, the clock."""
        evening = self.evening
        return (
            sorted(Participant.objects.filter(evening=evening).values_list("player_id", "checked_in", "is_stand_in")),
            sorted(
                Seating.objects.filter(round__session__evening=evening).values_list(
                    "pk", "team_a_id", "team_b_id", "entered_at", "confirmed_at"
                )
            ),
            sorted(
                Deal.objects.filter(seating__round__session__evening=evening).values_list("pk", "points_a", "points_b")
            ),
            sorted(Round.objects.filter(session__evening=evening).values_list("pk", "locked", "sitout_partnership_id")),
            sorted(Session.objects.filter(evening=evening).values_list("pk", "closed", "seed")),
            evening.clock_state,
        )

    def _check_the_list(self, lines: tuple):
        rows = {pid: (present, stand_in) for pid, present, stand_in in lines[0]}
        assert set(rows) == self.on_list
        assert {pid for pid, (present, _) in rows.items() if present} == self.checked_in
        assert {pid for pid, (_, stand_in) in rows.items() if stand_in} == self.stand_ins

    def _check_deals(self):
        stored = {
            (seating, number): (a, b)
            for seating, number, a, b in Deal.objects.filter(seating__round__session__evening=self.evening).values_list(
                "seating_id", "number", "points_a", "points_b"
            )
        }
        assert stored == self.deals

    def _check_nobody_sits_twice(self, draw: Draw) -> set[int]:
        """Nobody at two tables of a round, nor at a table and sitting out; returns everybody drawn
        (seated or sitting out in a round)."""
        team_players = draw.teams
        drawn: set[int] = set()
        for round_, seatings in draw.rounds:
            seated = [pid for s in seatings for pid in (*team_players[s.team_a_id], *team_players[s.team_b_id])]
            assert len(seated) == len(set(seated)), f"a player at two tables in {round_}"
            out = set(team_players[round_.sitout_partnership_id]) if round_.sitout_partnership_id else set()
            assert not out & set(seated), f"a player seated and sitting out in {round_}"
            drawn |= set(seated) | out | set(round_.session.sitout_player_ids)
        return drawn

    def _expected_scores(self, draw: Draw) -> dict[int, list[Fraction]]:
        """Player id -> matchsticks per session: their teams' deals, plus the sit-out credit of each
        round they sat out (the exact average of the teams at the tables that finished it)."""
        scores: dict[int, list[Fraction]] = defaultdict(lambda: [Fraction(0)] * SESSIONS)
        sums: dict[int, list[int]] = defaultdict(lambda: [0, 0])
        counts: dict[int, int] = defaultdict(int)
        for (seating_id, _), (a, b) in self.deals.items():
            sums[seating_id][0] += a
            sums[seating_id][1] += b
            counts[seating_id] += 1
        teams = draw.teams
        for round_, seatings in draw.rounds:
            i = round_.session.number - 1
            seated: set[int] = set()
            done: list[int] = []
            for seating in seatings:
                a, b = sums[seating.pk]
                for pid in teams[seating.team_a_id]:
                    scores[pid][i] += a
                for pid in teams[seating.team_b_id]:
                    scores[pid][i] += b
                seated |= set(teams[seating.team_a_id]) | set(teams[seating.team_b_id])
                finished = seating.entered_at or seating.confirmed_at or counts[seating.pk] >= DEALS
                if finished:
                    done += [a, b]
            credit = Fraction(sum(done), len(done)) if done else Fraction(0)
            sitting = set(teams[round_.sitout_partnership_id]) if round_.sitout_partnership_id else set()
            sitting |= set(round_.session.sitout_player_ids)
            for pid in sitting - seated:
                scores[pid][i] += credit
        return scores

    def _check_ranking(self, drawn: set[int], draw: Draw):
        rows = evening_ranking(self.evening)
        ranked = {row.player.pk for row in rows}
        if draw.sessions:
            expected = drawn - self.stand_ins
        else:
            expected = self.checked_in - self.stand_ins
        assert ranked == expected, {"ranked but should not be": ranked - expected, "missing": expected - ranked}
        self.totals = {row.player.pk: row.total for row in rows}
        scores = self._expected_scores(draw)
        for row in rows:
            sessions = scores[row.player.pk]
            assert list(row.sessions) == sessions, (row.player.name, row.sessions, sessions)
            assert row.total == sum(sessions, Fraction(0))
            assert row.place == 1 + sum(1 for other in rows if other.total > row.total), (row.player.name, row.place)
        return ranked

    def _check_season_and_player_page(self, ranked: set[int]):
        """The season counts the evening for exactly the ranked players once a session is drawn
        (none before), with the evening's totals; a player's own page lists the evening, ranked,
        exactly then too (one player per step, in turn)."""
        played = ranked if self.sessions_drawn else set()
        season = season_ranking(self.season)
        column = next(i for i, c in enumerate(season.evenings) if c.evening.pk == self.evening.pk)
        counted = {line.player.pk: line.cells[column].result.total for line in season.lines if column in line.cells}
        assert set(counted) == played, {"counted": set(counted) - played, "not counted": played - set(counted)}
        assert all(total == self.totals[pid] for pid, total in counted.items())
        player = self.players[self.steps % POOL]
        listed = [e for e in player_history(player).evenings if e.evening.pk == self.evening.pk and e.row is not None]
        assert bool(listed) == (player.pk in played), (player.name, listed)

    def _check_clock(self):
        state = self.evening.clock_state
        if state.kind != clock_domain.ROUND or state.status not in (clock_domain.RUNNING, clock_domain.PAUSED):
            return
        round_ = Round.objects.filter(
            session__evening=self.evening, session__number=state.session, number=state.round
        ).first()
        assert round_ is not None, f"a clock for a round that is not drawn: {state}"
        confirmed = not Seating.objects.filter(round=round_, confirmed_at__isnull=True).exists()
        assert not confirmed, f"the clock {state.status} for session {state.session}, round {state.round}, confirmed"

    def _check_the_end(self, draw: Draw):
        """Once every session is drawn and every table has confirmed every round, the evening is
        over: no clock counts (nor waits paused, not even a break), every table's page and "Wo
        sitze ich?" say that the evening is over instead of waiting for another draw."""
        if self.sessions_drawn < SESSIONS or any(s.confirmed_at is None for s in draw.seatings):
            return
        SEEN["steps after the evening's end"] += 1
        assert self.evening.clock_state.status not in (clock_domain.RUNNING, clock_domain.PAUSED), (
            f"a clock after the evening's end: {self.evening.clock_state}"
        )
        caches[screen_cache.CACHE].clear()  # a phone's next poll, after the public screens' floor (2 s)
        finder = self.public.get(reverse("public:seat_finder", args=[self.evening.pk]))
        assert b'data-testid="evening-over"' in finder.content
        for table in self._tables():
            page = self.public.get(reverse("scorer:table", args=[table.token]))
            assert b'data-testid="evening-over"' in page.content, table.number

    # --- the pages -----------------------------------------------------------------------------

    def _pages(self, draw: Draw | None = None) -> list[tuple[Client, str]]:
        """A representative set of the evening's pages: the organiser's, every table's tablet page,
        the projector and the public screens (of ``draw``, the draw as stored: read here if not given)."""
        draw = draw or self._draw()
        pk = self.evening.pk
        desk, public = self.desk, self.public
        pages = [
            (desk, reverse("organiser:evening_detail", args=[pk])),
            (desk, reverse("organiser:ranking", args=[pk])),
            (desk, reverse("organiser:live", args=[pk])),
            (desk, reverse("organiser:deal_results", args=[pk])),
            (public, reverse("public:projector", args=[pk])),
            (public, reverse("public:ranking_screen", args=[pk])),
            (public, reverse("public:seat_finder", args=[pk])),
            (public, reverse("public:round_clock", args=[pk])),
            (public, reverse("public:seat", args=[pk, self.players[0].pk])),
        ]
        pages += [(desk, reverse("organiser:session_detail", args=[pk, s.number])) for s in draw.sessions]
        for table in self._tables():
            pages += [
                (public, reverse("scorer:table", args=[table.token])),
                (public, reverse("scorer:poll", args=[table.token])),
            ]
        if draw.seatings:
            pages.append((desk, reverse("organiser:seating_detail", args=[draw.seatings[-1].pk])))
        return pages

    def _check_pages(self, pages):
        for client, url in pages:
            response = client.get(url)
            assert response.status_code < 500, (url, response.status_code)


def machine_settings():
    if LONG:
        return settings(
            max_examples=LONG_EXAMPLES,
            stateful_step_count=100,
            deadline=None,
            suppress_health_check=list(HealthCheck),
            database=None,
        )
    return settings(
        max_examples=10,
        stateful_step_count=50,
        deadline=None,
        suppress_health_check=list(HealthCheck),
        derandomize=True,
        database=None,
        phases=[Phase.explicit, Phase.generate],  # a failure is reported with its steps as they were (no shrinking)
    )


@pytest.mark.no_cover  # a sweep: every line it runs is measured by the services' own tests (tests/conftest.py)
def test_the_whole_evening(db):
    SEEN.clear()
    run_state_machine_as_test(EveningMachine, settings=machine_settings())
    # The machine played, not only refused: draws, deals, rounds finished and confirmed, evenings ended.
    for step in ("draw_session", "enter_deal", "confirm_seating"):
        assert SEEN[f"{step}: done"], (step, sorted(SEEN.items()))
    if LONG:
        print(sorted(SEEN.items()))


@pytest.mark.no_cover  # end to end: every line it runs is measured by the services' own tests (tests/conftest.py)
def test_an_evening_played_to_its_end(db):
    """The machine's steps in a fixed order, every invariant checked after each: an evening with a
    player checked out before the first draw, a stand-in, a late arrival, disputes, a replacement,
    the clock, locks and backups, played to its end (Hypothesis's examples, each a different
    subset of the steps, need not get there)."""
    SEEN.clear()
    machine = EveningMachine()
    steps = [
        lambda: machine.check_in_the_field(count=POOL - 2),
        lambda: machine.check_in_or_out(index=0, present=False),  # stays at home: checked out before the draw
        lambda: machine.stand_in(index=1, stand_in=True),
        lambda: machine.evening_goes_on(seed=1, with_clock=True, rounds=1),
        lambda: machine.tablet_plays_its_round(table=0, team="A", seed=2, dispute=True),
        lambda: machine.check_in_or_out(index=POOL - 1, present=True),  # a late arrival
        lambda: machine.replace(leaving=3, replacement=0, sensible=True),
        lambda: machine.clock_button(button="pause", index=0, locks=False),
        lambda: machine.lock_round(index=2, locked=True),
        lambda: machine.organiser_enters_deal(seating=4, number=1, seed=3, reason="Zettel"),
        lambda: machine.lock_round(index=2, locked=False),
        lambda: machine.evening_goes_on(seed=4, with_clock=True, rounds=ROUNDS),
        lambda: machine.backup_into_an_empty_database(),
        lambda: machine.evening_goes_on(seed=5, with_clock=False, rounds=ROUNDS),
        lambda: machine.swap(a=0, b=1, sensible=True),
        lambda: machine.evening_goes_on(seed=6, with_clock=True, rounds=ROUNDS),
        lambda: machine.clock_button(button="break", index=0, locks=False),
        lambda: machine.organiser_enters_deal(seating=0, number=2, seed=7, reason="Zettel"),
        lambda: machine.backup_restored_as_copy(),
        lambda: machine.backup_into_an_empty_database(),
    ]
    try:
        for step in steps:
            step()
            machine.everything_holds()
    finally:
        machine.teardown()
    assert SEEN["steps after the evening's end"] >= 4, sorted(SEEN.items())
    assert SEEN["replace_player: done"] and SEEN["reopen_seating: done"], sorted(SEEN.items())
