"""Entering and correcting deals (from a table's tablet or an organiser page)."""

from __future__ import annotations

import uuid

from django.db import IntegrityError, transaction
from django.utils.translation import gettext

from scoring.domain.errors import gettext_noop
from scoring.domain.numbers import ascii_int
from scoring.domain.rules import DealResult, DealScore, ImpossibleResult
from scoring.domain.rulesets import BOCK, DRAW, RuleSet
from scoring.hall.origin import Origin
from scoring.hall.roles import RUN_PERM
from scoring.models import Deal, DealChange, DrawnDeal, RoundEvent, Seating, Table
from scoring.selectors.table_entry import current_seating
from scoring.services.base import ServiceError, evening_changed
from scoring.services.round_events import record_round_event


class ConflictError(ServiceError):
    """The form was based on an older state of the deal: someone changed it in the meantime.

    ``deal`` is the deal as it is now; nothing was saved.
    """

    def __init__(self, message: str, code: str = "conflict", *, deal: Deal | None = None, **params):
        super().__init__(message, code=code, **params)
        self.deal = deal


def _snapshot(deal: Deal) -> dict:
    return {
        "winner": deal.winner,
        "to_nil": deal.to_nil,
        "bonus_a": deal.bonus_a,
        "bonus_b": deal.bonus_b,
        "points_a": deal.points_a,
        "points_b": deal.points_b,
    }


def locked_seating(seating_id) -> Seating | None:
    """The seating, locked for this transaction (PostgreSQL row lock; SQLite takes its write lock
    at the start of every transaction), with its round, session and evening."""
    seating_id = ascii_int(seating_id)
    if seating_id is None:
        return None
    return (
        Seating.objects.select_related("round__session__evening")
        .select_for_update(of=("self",))  # the seating only: other tables go on entering
        .filter(pk=seating_id)
        .order_by("pk")  # not the model's ordering: that joins the evening for nothing
        .first()
    )


def check_own_table(seating: Seating | None, table: Table | None) -> Seating:
    """The seating, if it exists and (with a table link) belongs to that table; else ServiceError
    (``no_seating``, ``foreign_table``). ``table`` None: the organiser, any table."""
    if seating is None:
        raise ServiceError(gettext_noop("This round does not exist."), code="no_seating")
    if table is not None and seating.table_id != table.pk:
        raise ServiceError(gettext_noop("This round belongs to another table."), code="foreign_table")
    return seating


def check_table_may_change(seating: Seating, table: Table, *, entry: bool) -> None:
    """Raise ServiceError unless a table link may change this seating now.

    ``entry``: entering or correcting deals (refused in a locked round); finishing and confirming
    are allowed in a locked round, so the organiser's lock does not trap a table that is done.
    """
    if seating.confirmed_at is not None:
        raise ServiceError(
            gettext_noop("This round is complete and can no longer be changed at the table. Please ask the organiser."),
            code="round_complete",
        )
    if seating.round.session.closed:
        raise ServiceError(
            gettext_noop(
                "Session %(number)s is closed: the tables can no longer change anything. Please ask the organiser."
            ),
            code="session_closed",
            number=seating.round.session.number,
        )
    if entry and seating.round.locked:
        raise ServiceError(
            gettext_noop(
                "Round %(number)s is locked by the organiser: no more entries at the tables. Please ask the organiser."
            ),
            code="round_locked",
            number=seating.round.number,
        )
    current = current_seating(table)
    if current is None or current.pk != seating.pk:
        raise ServiceError(
            gettext_noop("This is not the current round at this table. Please reload the page."),
            code="not_current_round",
        )


def _check_organiser_may_change(seating: Seating, user, *, accept_impossible: bool = False) -> None:
    """Raise ServiceError unless the organiser ``user`` (None: no organiser) may change this
    seating's deals now.

    A Helfer (a login without the permission to run the evening, ``scoring.hall.roles``) types in paper
    score sheets: never a change of a confirmed round, never an "impossible" result accepted;
    both are the Turnierleitung's decision. Called with the seating locked (:func:`locked_seating`,
    the row :func:`~scoring.services.confirmation.confirm_seating` locks too), so a confirmation
    that commits while the Helfer's form is on its way is seen here.
    """
    if user is None or user.has_perm(RUN_PERM):
        return
    if seating.confirmed_at is not None:
        raise ServiceError(
            gettext_noop("This round is confirmed: only the Turnierleitung can correct it now."),
            code="confirmed_leader_only",
        )
    if accept_impossible:
        raise ServiceError(
            gettext_noop("Only the Turnierleitung can accept a result the rules call impossible."),
            code="impossible_leader_only",
        )


def check_all_deals_entered(seating: Seating) -> None:
    """Raise ServiceError (``deals_missing``) unless the seating has all the evening's deals per round."""
    expected = seating.round.session.evening.deals_per_round
    entered = seating.deals.count()
    if entered < expected:
        raise ServiceError(
            gettext_noop("%(missing)s of %(count)s deals are still missing."),
            code="deals_missing",
            missing=expected - entered,
            count=expected,
        )


def enter_deal(
    *,
    seating_id: int,
    number: int,
    result: DealResult,
    origin: Origin,
    user=None,
    table: Table | None = None,
    reason: str = "",
    accept_impossible: bool = False,
    key: uuid.UUID | None = None,
    based_on_version: int | None = None,
    client: str = "",
) -> Deal:
    """Enter or correct the result of deal ``number`` at a seating, keeping the previous value.

    Args:
        seating_id: the seating (two partnerships at one table in one round).
        number: deal number, 1 .. the evening's deals per round.
        result: what the scorer entered (rules.DealResult).
        origin: where the change came from, for the history (scoring.hall.origin): a table link, an
            organiser page (with the login's role and name then), the demo.
        user: the organiser, when entered from an organiser page. A Helfer (no permission to
            run the evening) may neither change a confirmed round nor accept an impossible
            result; checked with the seating locked, like every state the change depends on.
        table: when entered through a table link: the table it belongs to. The seating must then be
            that table's current seating, not confirmed, its round not locked, its session not
            closed. A correction of a round the scorer has finished reopens it (the other team
            must confirm what is now entered).
        reason: the organiser's reason for a correction or an accepted impossible result;
            required for an organiser's correction of a confirmed round.
        accept_impossible: organiser only: save a result the rules call impossible, with ``reason``.
        key: the idempotency key of the form sent (a UUID made when the form was shown). Sending
            the same key again (double tap, resent form, replay after a lost connection) changes
            nothing and returns the deal as it is, with ``outcome == "replayed"``.
        based_on_version: the deal's ``version`` the form was made from (0: not entered yet). If
            the deal has changed since to a different result, nothing is saved (ConflictError).
        client: the device's network address, kept in the history.

    Returns:
        The saved Deal with its matchsticks (points_a, points_b) and ``outcome``: "created",
        "changed", "unchanged" or "replayed".

    Raises:
        ImpossibleResult: the rules reject the result (nothing saved).
        ConflictError: the deal was changed meanwhile (``based_on_version`` is stale).
        ServiceError: unknown seating or deal number, a confirmed/locked/closed round changed from
            a table link, a confirmed round changed or an impossible result accepted by a Helfer,
            a missing reason, or a key already used for another deal.
    """
    try:
        with transaction.atomic():
            return _enter_deal(
                seating_id=seating_id,
                number=number,
                result=result,
                origin=origin,
                user=user,
                table=table,
                reason=reason.strip(),
                accept_impossible=accept_impossible,
                key=key,
                based_on_version=based_on_version,
                client=client[:64],
            )
    except IntegrityError:  # a backstop: the seating lock serialises entries for one seating
        raise ServiceError(
            gettext_noop("This deal was saved at the same moment on another device. Please reload the page."),
            code="entry_race",
        ) from None


def _entered(values: dict) -> tuple:
    """What a scorer enters for a deal (winner, to nil, both bonuses), from a snapshot."""
    return (values.get("winner"), values.get("to_nil"), values.get("bonus_a"), values.get("bonus_b"))


def _stored_value_params(deal: Deal) -> dict:
    """The deal as stored, for a message: winning team and matchsticks."""
    return {"number": deal.number, "winner": deal.winner, "points_a": deal.points_a, "points_b": deal.points_b}


def _replayed(sent: DealChange, number: int, result: DealResult) -> Deal:
    """A form whose idempotency key was used before (double tap, resent form, replay, Back
    button): the deal as it is, outcome ``"replayed"``, only if the key was used for the same
    deal with the same entry and the deal still holds it. Otherwise :class:`ConflictError`
    naming what is stored; nothing is changed."""
    deal = sent.deal
    if deal.number != number:
        raise ConflictError(
            gettext_noop("This form was already sent for deal %(number)s. Please reload the page."),
            code="key_reused",
            deal=deal,
            number=deal.number,
        )
    if _entered(sent.new) != (result.winner, result.to_nil, result.bonus_a, result.bonus_b):
        raise ConflictError(
            gettext_noop(
                "This form was already sent for deal %(number)s with another entry. Deal %(number)s "
                "reads: team %(winner)s won, %(points_a)s:%(points_b)s. Your new entry was not "
                "taken. To correct the deal, tap it in the list and enter it again."
            ),
            code="key_other_content",
            deal=deal,
            **_stored_value_params(deal),
        )
    if _snapshot(deal) != sent.new:
        raise ConflictError(
            gettext_noop(
                "Deal %(number)s was saved from this form before and has been changed since; it "
                "now reads: team %(winner)s won, %(points_a)s:%(points_b)s. Nothing was changed."
            ),
            code="changed_since",
            deal=deal,
            **_stored_value_params(deal),
        )
    deal.outcome = "replayed"
    return deal


def _enter_deal(
    *,
    seating_id: int,
    number: int,
    result: DealResult,
    origin: Origin,
    user,
    table: Table | None,
    reason: str,
    accept_impossible: bool,
    key: uuid.UUID | None,
    based_on_version: int | None,
    client: str,
) -> Deal:
    seating = check_own_table(locked_seating(seating_id), table)
    _check_deal_number(seating, number)
    sent = _sent_before(seating, key)
    if sent is not None:
        return _replayed(sent, number, result)
    rules = _check_may_enter(seating, result, table=table, user=user, accept_impossible=accept_impossible)
    accepted = accept_impossible and user is not None
    others = _round_results(seating, rules, number)
    score = _scored(rules, result, accepted=accepted, reason=reason, carried=rules.carried_into(others, number))
    deal = Deal.objects.filter(seating=seating, number=number).order_by("pk").first()
    previous = _snapshot(deal) if deal else None
    if deal is None:
        deal = Deal(seating=seating, number=number, version=0)
    based_on = deal.version
    _set_result(deal, result, score, override_reason=reason if accept_impossible else "")
    new = _snapshot(deal)
    if previous == new:
        deal.outcome = "unchanged"
        return deal
    _check_may_overwrite(deal, previous, based_on_version, seating=seating, user=user, reason=reason)
    deal.version = based_on + 1
    deal.save()
    DealChange.objects.create(
        deal=deal,
        changed_by=user,
        **origin.fields(),
        previous=previous,
        new=new,
        reason=reason,
        client=client,
        submission=key,
    )
    if table is not None:
        _reopen_entered(seating, origin)
    if rules.no_winner == BOCK:
        _rescore_after_bock(seating, rules, number, origin=origin, user=user, client=client)
    evening_changed(seating.round.session.evening_id, seats=False)  # no seat moves
    deal.outcome = "created" if previous is None else "changed"
    return deal


def _sent_before(seating: Seating, key: uuid.UUID | None) -> DealChange | None:
    """The first change this submission ``key`` made to a deal of ``seating`` (a request sent
    again); None without a key or when it is new."""
    if key is None:
        return None
    return (
        DealChange.objects.filter(deal__seating=seating, submission=key).select_related("deal").order_by("pk").first()
    )


def _check_may_enter(
    seating: Seating, result: DealResult, *, table: Table | None, user, accept_impossible: bool
) -> RuleSet:
    """The evening's rule set, once the table (or the organiser) may enter ``result`` there.

    Raises ServiceError: as :func:`check_table_may_change` and :func:`_check_organiser_may_change`,
    or a drawn deal, which does not use up a deal (``draw_not_a_deal``)."""
    if table is not None:
        check_table_may_change(seating, table, entry=True)
    _check_organiser_may_change(seating, user, accept_impossible=accept_impossible)
    rules = seating.round.session.evening.rules
    if not rules.uses_deal(result):
        raise ServiceError(
            gettext_noop("A drawn deal does not use up the deal: record the draw on the tablet and deal again."),
            code="draw_not_a_deal",
        )
    return rules


def _set_result(deal: Deal, result: DealResult, score: DealScore, *, override_reason: str) -> None:
    """``deal``'s fields set to ``result`` and its ``score`` (not saved)."""
    deal.winner = result.winner
    deal.to_nil = result.to_nil
    deal.bonus_a = result.bonus_a
    deal.bonus_b = result.bonus_b
    deal.points_a = score.a
    deal.points_b = score.b
    deal.override_reason = override_reason


def _reopen_entered(seating: Seating, origin: Origin) -> None:
    """A table that changes a deal after "Runde beenden" has to finish the round again."""
    if seating.entered_at is not None:
        seating.entered_at = None
        seating.entered_by = ""
        seating.save(update_fields=["entered_at", "entered_by"])
        record_round_event(RoundEvent.Kind.REOPENED, round_id=seating.round_id, seating=seating, origin=origin)


def _result_of(deal: Deal) -> DealResult:
    return DealResult(deal.winner, deal.to_nil, deal.bonus_a, deal.bonus_b)


def _round_results(seating: Seating, rules: RuleSet, number: int) -> dict[int, DealResult]:
    """The seating's other entered deals, when the rule set carries points between deals (a Treia
    Bock); else nothing (no query)."""
    if rules.no_winner != BOCK:
        return {}
    return {d.number: _result_of(d) for d in seating.deals.exclude(number=number)}


def _rescore_after_bock(seating: Seating, rules: RuleSet, number: int, *, origin: Origin, user, client: str) -> None:
    """After deal ``number`` changed: the later deals whose matchsticks change because a Bock is
    carried to them (or no longer is) get their new points, a new version and a history entry."""
    deals = {d.number: d for d in seating.deals.all()}
    accepted = {n for n, d in deals.items() if d.override_reason}
    scores = rules.score_round(
        {n: _result_of(d) for n, d in deals.items()}, seating.round.session.evening.deals_per_round, accepted
    )
    for n, deal in sorted(deals.items()):
        score = scores.get(n)
        if n == number or score is None or (deal.points_a, deal.points_b) == (score.a, score.b):
            continue
        previous = _snapshot(deal)
        deal.points_a, deal.points_b = score.a, score.b
        deal.version += 1
        deal.save(update_fields=["points_a", "points_b", "version", "updated_at"])
        DealChange.objects.create(
            deal=deal,
            changed_by=user,
            **origin.fields(),
            previous=previous,
            new=_snapshot(deal),
            reason=gettext("Matchsticks recalculated: deal %(number)s changed what a Bock carries.")
            % {"number": number},
            client=client,
        )


def record_draw(
    *,
    seating_id: int,
    number: int,
    origin: Origin,
    user=None,
    table: Table | None = None,
    key: uuid.UUID | None = None,
    client: str = "",
) -> DrawnDeal:
    """Record that deal ``number`` was drawn (Bräus: nobody reached six tricks, nor five and ♣K).

    The draw is kept for the audit; it does not use up the deal: the same dealer deals again and
    deal ``number`` is still to be entered (our decision, docs/rules.md "Bräus: a drawn deal"). Sending the same
    ``key`` again records nothing more (``outcome == "replayed"``).

    Returns:
        The DrawnDeal, with ``outcome``: "created" or "replayed".

    Raises:
        ImpossibleResult: the evening's rule set has no draw.
        ServiceError: unknown seating or deal number, a round a table link or a Helfer may not
            change (as :func:`enter_deal`), or a deal already entered.
    """
    with transaction.atomic():
        seating = check_own_table(locked_seating(seating_id), table)
        _check_deal_number(seating, number)
        seating.round.session.evening.rules.check_result(DealResult(DRAW, False, 0, 0))
        if key is not None:
            sent = DrawnDeal.objects.filter(seating=seating, submission=key).order_by("pk").first()
            if sent is not None:
                sent.outcome = "replayed"
                return sent
        if table is not None:
            check_table_may_change(seating, table, entry=True)
        _check_organiser_may_change(seating, user)
        if Deal.objects.filter(seating=seating, number=number).exists():
            raise ServiceError(
                gettext_noop("Deal %(number)s is already entered: a draw can only be recorded before it is entered."),
                code="draw_after_entry",
                number=number,
            )
        drawn = DrawnDeal.objects.create(
            seating=seating,
            number=number,
            recorded_by=user,
            **origin.fields(),
            client=client[:64],
            submission=key,
        )
        drawn.outcome = "created"
        evening_changed(seating.round.session.evening_id, seats=False)
        return drawn


def _check_deal_number(seating: Seating, number: int) -> None:
    """Raise ServiceError unless ``number`` is a deal of the evening's rounds (1..deals per round)."""
    deals_per_round = seating.round.session.evening.deals_per_round
    if not 1 <= number <= deals_per_round:
        raise ServiceError(
            gettext_noop("There is no deal %(number)s: a round has deals 1 to %(count)s."),
            code="deal_out_of_range",
            number=number,
            count=deals_per_round,
        )


def _scored(rules: RuleSet, result: DealResult, *, accepted: bool, reason: str, carried: int) -> DealScore:
    """The deal's matchsticks by the evening's rule set (:meth:`RuleSet.score_deal`, with what
    Bocks before it carry). A result the rules call impossible raises ImpossibleResult unless an
    organiser accepts it (``accepted``) with a reason: then :meth:`RuleSet.score_accepted`
    scores it."""
    try:
        return rules.score_deal(result, carried)
    except ImpossibleResult:
        if not accepted:
            raise
        if not reason:
            raise ServiceError(
                gettext_noop("Please give a reason for accepting a result the rules call impossible."),
                code="reason_missing",
            ) from None
        return rules.score_accepted(result, carried)


def _check_may_overwrite(deal: Deal, previous: dict | None, based_on_version, *, seating, user, reason) -> None:
    """Raise ConflictError when the form was made from an older version of a deal that has been
    changed since, and ServiceError when an organiser corrects a confirmed round without a reason."""
    if based_on_version is not None and previous is not None and based_on_version != deal.version:
        raise ConflictError(
            gettext_noop(
                "Deal %(number)s was changed on another device in the meantime and now reads "
                "%(points_a)s:%(points_b)s. Your entry was not saved. Please check the deal and "
                "correct it if necessary."
            ),
            deal=Deal.objects.get(pk=deal.pk),
            number=deal.number,
            points_a=previous["points_a"],
            points_b=previous["points_b"],
        )
    if user is not None and previous is not None and seating.confirmed_at is not None and not reason:
        raise ServiceError(
            gettext_noop("This round is already confirmed: please give a reason for the correction."),
            code="reason_required",
        )
