"""The rules of the game and the models' uniqueness, checked on the records of a backup before
anything is written."""

from __future__ import annotations

from typing import Any, cast

from django.db import models

from scoring.backup.base import MODELS, backed_up_fields, invalid
from scoring.domain.errors import DomainError, gettext_noop
from scoring.domain.rules import DealResult, ImpossibleResult
from scoring.domain.rulesets import RuleSet, rule_set
from scoring.models import Deal

_NO_SUCH_SESSION = gettext_noop("There is no session %(number)s: the evening has sessions 1 to %(count)s.")


_NO_SUCH_ROUND = gettext_noop("There is no round %(number)s: a session has rounds 1 to %(count)s.")


_NO_SUCH_DEAL = gettext_noop("There is no deal %(number)s: a round has deals 1 to %(count)s.")


def _check_number(key: str, obj: Any, count: int, message: str) -> None:
    """BackupError naming the record unless its ``number`` lies in 1..``count``."""
    if not 1 <= obj.number <= count:
        raise invalid(key, obj.pk, DomainError(message, number=obj.number, count=count))


def check_game(objects: dict[str, list]) -> None:
    """Raise BackupError (naming the record) unless every session, round and deal fits its
    evening and every deal is scored as the evening's rule set scores it
    (``scoring.domain.rulesets``, Treia's Bocks carried): a result
    the rules call impossible needs the organiser's stored reason, as in the app."""
    evenings, sessions, rounds, seatings = (
        {obj.pk: obj for obj in objects[key]} for key in ("evenings", "sessions", "rounds", "seatings")
    )
    for session in objects["sessions"]:
        _check_number("sessions", session, evenings[session.evening_id].sessions_count, _NO_SUCH_SESSION)
    for round_ in objects["rounds"]:
        evening = evenings[sessions[round_.session_id].evening_id]
        _check_number("rounds", round_, evening.rounds_per_session, _NO_SUCH_ROUND)
    results: dict[Any, dict[int, DealResult]] = {}  # seating -> deal number -> result (Bocks carry)
    for deal in objects["deals"]:
        results.setdefault(deal.seating_id, {})[deal.number] = _result(deal)
    for deal in objects["deals"]:
        evening = evenings[sessions[rounds[seatings[deal.seating_id].round_id].session_id].evening_id]
        _check_number("deals", deal, evening.deals_per_round, _NO_SUCH_DEAL)
        rules = rule_set(evening.rule_set)
        _check_score(deal, rules, rules.carried_into(results[deal.seating_id], deal.number))


def _result(deal: Deal) -> DealResult:
    return DealResult(deal.winner, deal.to_nil, deal.bonus_a, deal.bonus_b)


def _check_score(deal: Deal, rules: RuleSet, carried: int) -> None:
    """Raise BackupError unless the deal's matchsticks are what the evening's rule set gives for
    its result (``carried``: matchsticks Bocks before it carry to its winner, Treia)."""
    result = _result(deal)
    try:
        score = rules.score_deal(result, carried)
    except ImpossibleResult as error:
        if not deal.override_reason.strip():
            raise invalid("deals", deal.pk, error) from None
        try:
            score = rules.score_accepted(result, carried)
        except ImpossibleResult as error:
            raise invalid("deals", deal.pk, error) from None
    if (deal.points_a, deal.points_b) != (score.a, score.b):
        raise invalid(
            "deals",
            deal.pk,
            DomainError(
                gettext_noop(
                    "The deal holds %(points_a)s:%(points_b)s matchsticks, but the rules give "
                    "%(rule_a)s:%(rule_b)s for what was entered."
                ),
                points_a=deal.points_a,
                points_b=deal.points_b,
                rule_a=score.a,
                rule_b=score.b,
            ),
        )


def _unique_sets(model: type[models.Model]) -> list[tuple[str, ...]]:
    """Attnames of each unique field or unconditional unique constraint of ``model``."""
    sets: list[tuple[str, ...]] = [(f.attname,) for f in backed_up_fields(model) if f.unique]
    for constraint in model._meta.constraints:
        if isinstance(constraint, models.UniqueConstraint) and constraint.fields and constraint.condition is None:
            sets.append(tuple(cast(models.Field, model._meta.get_field(name)).attname for name in constraint.fields))
    return sets


def check_unique_in_file(objects: dict[str, list]) -> None:
    """Two records of the file that the database would take for the same (two tables number 1
    of an evening, two results of one deal): BackupError naming the second one. Players (matched
    by name and club) and table links (replaced when taken) are handled by the restore."""
    for key, model, _ in MODELS[1:]:
        for names in _unique_sets(model):
            fields = [f for f in backed_up_fields(model) if f.attname in names]
            if any(f.has_default() and callable(f.default) for f in fields):
                continue  # a generated value (table link): made fresh when it is taken
            seen: dict[tuple, Any] = {}
            for obj in objects[key]:
                value = tuple(getattr(obj, name) for name in names)
                if None in value:
                    continue
                if value in seen:
                    raise invalid(
                        key,
                        obj.pk,
                        DomainError(
                            gettext_noop("It repeats %(fields)s of record %(first)s."),
                            fields=", ".join(n.removesuffix("_id") for n in names),
                            first=seen[value],
                        ),
                    )
                seen[value] = obj.pk


def _refuse(key: str, record_id: Any, message: str, **params: Any) -> None:
    raise invalid(key, record_id, DomainError(message, **params))


def check_graph(objects: dict[str, list]) -> None:
    """Raise BackupError naming the record unless the records fit together as the draw and the
    services make them: a partnership of two (three) distinct players, one
    partnership per player per session (the team a replacement joins, ``Substitution``, aside),
    nobody both sitting out and playing a session; a seating of two different partnerships of
    its round's session at a table of its evening; a round's sit-out partnership of its session;
    a replacement between partnerships of its session; a season joining each evening once.

    Pure Python on the file's ids (no query); references are known to exist (checked before)."""
    _check_partnerships(objects)
    _check_seatings(objects)


def _check_partnerships(objects: dict[str, list]) -> None:
    joined = {s.partnership_after_id for s in objects["substitutions"]}
    playing: dict[tuple[Any, Any], Any] = {}  # (session, player) -> partnership
    for team in objects["partnerships"]:
        players = [p for p in (team.player_1_id, team.player_2_id, team.player_3_id) if p is not None]
        if len(set(players)) != len(players):
            _refuse("partnerships", team.pk, gettext_noop("A player is twice in the same partnership."))
        if team.pk in joined:
            continue
        for player in players:
            first = playing.setdefault((team.session_id, player), team.pk)
            if first != team.pk:
                _refuse(
                    "partnerships",
                    team.pk,
                    gettext_noop("A player of it plays in partnership %(first)s of the same session too."),
                    first=first,
                )
    for session in objects["sessions"]:
        out = [p for p in (session.sitout_player_id, session.sitout_player_2_id) if p is not None]
        if len(set(out)) != len(out) or any((session.pk, p) in playing for p in out):
            _refuse("sessions", session.pk, gettext_noop("A player who sits the session out plays in it too."))


def _check_seatings(objects: dict[str, list]) -> None:
    sessions = {obj.pk: obj for obj in objects["sessions"]}
    partnerships = {obj.pk: obj for obj in objects["partnerships"]}
    rounds = {obj.pk: obj for obj in objects["rounds"]}
    tables = {obj.pk: obj for obj in objects["tables"]}
    for round_ in objects["rounds"]:
        out = round_.sitout_partnership_id
        if out is not None and partnerships[out].session_id != round_.session_id:
            _refuse("rounds", round_.pk, gettext_noop("Its partnership sitting out belongs to another session."))
    for seating in objects["seatings"]:
        round_ = rounds[seating.round_id]
        if seating.team_a_id == seating.team_b_id:
            _refuse("seatings", seating.pk, gettext_noop("A partnership plays against itself."))
        if any(partnerships[t].session_id != round_.session_id for t in (seating.team_a_id, seating.team_b_id)):
            _refuse("seatings", seating.pk, gettext_noop("A partnership of it belongs to another session."))
        if tables[seating.table_id].evening_id != sessions[round_.session_id].evening_id:
            _refuse("seatings", seating.pk, gettext_noop("Its table belongs to another evening."))
    for substitution in objects["substitutions"]:
        teams = (substitution.partnership_before_id, substitution.partnership_after_id)
        if any(partnerships[t].session_id != substitution.session_id for t in teams):
            _refuse("substitutions", substitution.pk, gettext_noop("A partnership of it belongs to another session."))
