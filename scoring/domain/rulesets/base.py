"""What every rule set is made of: the :class:`RuleSet` value (outcomes, points, checks), its
:class:`Wording` (the words pages, sheets and tie-breaks use, as English msgids) and the check of a
pair of bonuses against the rule set's possible pairs. The games themselves live beside this module,
one module per game or family (:mod:`.schwesing`, :mod:`.danish`, :mod:`.braeus`).

Standard library only: no Django import.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Final

from scoring.domain.errors import gettext_noop
from scoring.domain.rules import TEAM_A, TEAM_B, TEAMS, DealResult, DealScore, ImpossibleResult, other_team

#: ``DealResult.winner`` of a Treia deal the teams split 4:4: nobody wins it (a *Bock*).
BOCK: Final = "bock"
#: ``DealResult.winner`` of a Bräus deal nobody could decide: recorded, then dealt again.
DRAW: Final = "draw"

NO_BONUS: Final[frozenset[tuple[int, int]]] = frozenset({(0, 0)})


def _no_bonus() -> frozenset[tuple[int, int]]:
    return NO_BONUS


# --------------------------------------------------------------------------------------------
# The bonuses of one result, against the pairs of a rule set
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class BonusMessages:
    """The refusals of a bonus, in the words of a rule set's bonuses (English msgids; each takes
    the parameters :func:`check_bonuses` names)."""

    not_whole_number: str
    negative: str
    too_high: str
    impossible_pair: str


#: Schwesing and Treia: daring and striking.
DARING_MESSAGES: Final = BonusMessages(
    not_whole_number=gettext_noop(
        "Team %(team)s: please enter the matchsticks for daring and striking as a whole number."
    ),
    negative=gettext_noop("Team %(team)s: the matchsticks for daring and striking cannot be less than 0."),
    too_high=gettext_noop(
        "Team %(team)s: at most %(max_bonus)s matchsticks for daring and striking are possible in one deal."
    ),
    impossible_pair=gettext_noop(
        "Team A %(bonus_a)s and team B %(bonus_b)s matchsticks for daring and striking "
        "cannot both happen in one deal: if team %(team)s gets %(bonus)s, team %(other)s "
        "gets at most %(other_max)s."
    ),
)


def check_bonuses(
    bonus_a: object,
    bonus_b: object,
    pairs: frozenset[tuple[int, int]],
    messages: BonusMessages = DARING_MESSAGES,
) -> None:
    """Check the two teams' bonuses (matchsticks) against the possible ``pairs`` of a rule set.

    ``messages``: the refusals in the words of the rule set's bonuses (:attr:`Wording.bonus_messages`).

    Raises:
        ImpossibleResult: a bonus is not a whole number (``int``, not ``bool``), is negative or
            is above the largest in ``pairs``; or the pair is not in ``pairs``. Parameters:
            ``team``; ``max_bonus``; ``bonus_a``, ``bonus_b``, ``team``, ``bonus``, ``other``,
            ``other_max``.
    """
    max_bonus = max(max(pair) for pair in pairs)
    bonuses = {TEAM_A: bonus_a, TEAM_B: bonus_b}
    for team, bonus in bonuses.items():
        if not isinstance(bonus, int) or isinstance(bonus, bool):
            raise ImpossibleResult(messages.not_whole_number, code="bonus_not_whole_number", team=team)
        if bonus < 0:
            raise ImpossibleResult(messages.negative, code="bonus_negative", team=team)
        if bonus > max_bonus:
            raise ImpossibleResult(messages.too_high, code="bonus_too_high", team=team, max_bonus=max_bonus)
    if (bonus_a, bonus_b) not in pairs:
        # Explain from the team with more, as the scorer is surest about the bigger event. For
        # each bonus of one team, the other team's possible bonuses run from 0 to a maximum.
        a, b = int(bonus_a), int(bonus_b)  # type: ignore[call-overload]
        team = TEAM_A if a >= b else TEAM_B
        other = other_team(team)
        bonus = a if team == TEAM_A else b
        raise ImpossibleResult(
            messages.impossible_pair,
            code="impossible_bonus_pair",
            bonus_a=a,
            bonus_b=b,
            team=team,
            bonus=bonus,
            other=other,
            other_max=_max_other_bonus(team, bonus, pairs),
        )


def _max_other_bonus(team: str, bonus: int, pairs: frozenset[tuple[int, int]]) -> int:
    """The largest bonus the opponents of ``team`` can win in a deal in which ``team`` wins
    ``bonus`` (0 to the largest in ``pairs``), from ``pairs``."""
    if team == TEAM_A:
        return max((b for a, b in pairs if a == bonus), default=0)
    return max((a for a, b in pairs if b == bonus), default=0)


# --------------------------------------------------------------------------------------------
# The rule set value
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Wording:
    """What the tablet and the printouts call the parts of a result (English msgids).

    Attributes:
        winner_question: the question above the team buttons.
        won_column: the heading of the column naming the winning team.
        to_nil: the "opponents took no trick" box (zu Null, 5:0, jan, Jan).
        to_nil_short: the same in a table cell.
        bonus: the bonus of one team, or "" for a rule set without bonuses.
        no_winner: the button for a deal nobody wins (Bock, draw), or "".
        no_winner_short: the same in a table cell, or "".
        legend: the rules in one paragraph, for the foot of the paper score sheet.
        bonus_note: what the bonuses are worth and why an unusual pair is possible, under the
            tablet's bonus buttons, or "".
        bonus_messages: the refusals of a bonus in the words of this rule set's bonuses.
        tiebreak_label: the bonus tie-break's name in the settings ("most matchsticks from ...").
        tiebreak_column: the bonus tie-break's column heading in rankings and exports.
        tiebreak_ahead: the note "ahead of %(name)s by more matchsticks from ..." (``name``: a
            player's name).
        tiebreak_help: the paragraph under the organiser's tie-break settings.

    The tie-break words default to daring and striking (Schwesing's, and the generic ones).
    """

    winner_question: str
    won_column: str
    to_nil: str
    to_nil_short: str
    bonus: str = ""
    no_winner: str = ""
    no_winner_short: str = ""
    legend: str = ""
    bonus_note: str = ""
    bonus_messages: BonusMessages = DARING_MESSAGES
    tiebreak_label: str = gettext_noop("most matchsticks from daring and striking")
    tiebreak_column: str = gettext_noop("Daring and striking")
    tiebreak_ahead: str = gettext_noop("ahead of %(name)s by more matchsticks from daring and striking")
    tiebreak_help: str = gettext_noop(
        "Only equal totals are compared; the ranking says which rule separated two players. Deals won: deals "
        "the player's team won. Daring and striking: the bonus matchsticks of the player's teams. Best "
        "session: sit-out credit included."
    )


@dataclass(frozen=True)
class RuleSet:
    """The rules an evening's deals are entered and scored by.

    Attributes:
        code: stored with the evening (``"schwesing"``, ``"treia"``, ...).
        is_default: the rule set of an evening nobody chose one for (Schwesing): the tablet's
            built-in words are its words, so the tablet neither names it nor relabels its form.
        name: the rule set's name (English msgid).
        source: the source text and section the rules come from, as docs/rules.md names them.
        cards: cards in the pack.
        tricks_to_win: tricks a team needs to win a deal (5, or 6 in Bräus).
        tricks_in_deal: tricks dealt (9; 8 in Treia; Bräus has no fixed number: players pass).
        players_per_team: 2, or 3 for six-handed Bräus (two teams of three at a table of six,
            partners alternating round the table; *Bräus* (Gotland)).
        derive_pairs: gives :attr:`bonus_pairs` (cached: the Danish rule sets derive them on
            first use).
        bonus_pairs (property): every ``(bonus_a, bonus_b)`` of one deal, in matchsticks;
            ``{(0, 0)}`` when the rule set has no bonuses.
        no_winner: :data:`BOCK`, :data:`DRAW` or ``""``: what a deal nobody wins is.
        language: the language its players speak (``"de"``, ``"da"``, ``"sv"``: a code of
            ``settings.LANGUAGES``): an evening of this rule set suggests it for its printouts,
            public screens and tablets (:func:`scoring.domain.languages.suggested_language`).
        wording: the names of the parts of a result.
    """

    code: str
    name: str
    source: str
    cards: int
    tricks_to_win: int
    tricks_in_deal: int | None
    wording: Wording
    language: str
    is_default: bool = False
    players_per_team: int = 2
    derive_pairs: Callable[[], frozenset[tuple[int, int]]] = _no_bonus
    no_winner: str = ""

    @property
    def players_per_table(self) -> int:
        """Players at one table: two teams."""
        return 2 * self.players_per_team

    @property
    def bonus_pairs(self) -> frozenset[tuple[int, int]]:
        """Every ``(bonus_a, bonus_b)`` of one deal, in matchsticks (``{(0, 0)}`` without bonuses)."""
        return self.derive_pairs()

    @property
    def has_bonus(self) -> bool:
        """The rule set scores bonuses (daring and striking, chancing and smacking)."""
        return self.bonus_pairs != NO_BONUS

    @property
    def max_bonus(self) -> int:
        """The largest bonus one team can win in one deal (0 without bonuses)."""
        return max(max(pair) for pair in self.bonus_pairs)

    @property
    def outcomes(self) -> tuple[str, ...]:
        """The values ``DealResult.winner`` may take: the teams, then :attr:`no_winner` if any."""
        return TEAMS + ((self.no_winner,) if self.no_winner else ())

    def uses_deal(self, result: DealResult) -> bool:
        """Whether the result is one of the round's deals (a Bräus draw is not: dealt again)."""
        return result.winner != DRAW

    def check_result(self, result: DealResult) -> None:
        """Check that ``result`` can happen in one deal under this rule set.

        Raises:
            ImpossibleResult: the winner is not one of :attr:`outcomes` (``invalid_winner``);
                ``to_nil`` is not a bool, or set for a deal nobody won (``invalid_to_nil``); a
                bonus in a rule set without bonuses or in a draw (``no_bonus``); a bonus or pair
                of bonuses :func:`check_bonuses` refuses.
        """
        if result.winner not in self.outcomes:
            if self.no_winner == BOCK:
                message = gettext_noop("Please choose the team that won the deal (A or B), or Bock.")
            elif self.no_winner == DRAW:
                message = gettext_noop("Please choose the team that won the deal (A or B), or draw.")
            else:
                message = gettext_noop("Please choose the team that won the deal: A or B.")
            raise ImpossibleResult(message, code="invalid_winner")
        if not isinstance(result.to_nil, bool):
            raise ImpossibleResult(
                gettext_noop("Please say whether the losing team took no trick at all: yes or no."),
                code="invalid_to_nil",
            )
        if result.to_nil and result.winner not in TEAMS:
            raise ImpossibleResult(
                gettext_noop("Nobody won this deal, so it cannot be won to nil."), code="invalid_to_nil"
            )
        if (not self.has_bonus or result.winner == DRAW) and (result.bonus_a, result.bonus_b) != (0, 0):
            raise ImpossibleResult(
                gettext_noop("These rules have no bonus matchsticks: please enter 0 for both teams."),
                code="no_bonus",
            )
        check_bonuses(result.bonus_a, result.bonus_b, self.bonus_pairs, self.wording.bonus_messages)

    def score_deal(self, result: DealResult, carried: int = 0) -> DealScore:
        """The matchsticks of one deal: the winner 1, or 2 to nil, plus ``carried`` (Bocks before
        it); each team adds its bonus. A Bock or a draw gives no team the trick points.

        Raises:
            ImpossibleResult: see :meth:`check_result`.
        """
        self.check_result(result)
        return self._points(result, carried)

    def score_accepted(self, result: DealResult, carried: int = 0) -> DealScore:
        """Score a result the organiser accepted although :meth:`check_result` calls its
        bonuses impossible (a local custom, with a written reason): trick points as
        :meth:`score_deal`, each bonus as entered.

        Raises:
            ImpossibleResult: the winner or "to nil" is not valid (never accepted).
        """
        self.check_result(DealResult(result.winner, result.to_nil, 0, 0))
        return self._points(result, carried)

    def _points(self, result: DealResult, carried: int) -> DealScore:
        tricks = (2 if result.to_nil else 1) + carried
        return DealScore(
            a=result.bonus_a + (tricks if result.winner == TEAM_A else 0),
            b=result.bonus_b + (tricks if result.winner == TEAM_B else 0),
        )

    def carry_after(self, result: DealResult, carried: int) -> int:
        """The matchsticks carried into the next deal: ``carried + 1`` after a Bock, else 0."""
        return carried + 1 if result.winner == BOCK else 0

    def score_round(
        self, results: Mapping[int, DealResult], deals: int, accepted: Iterable[int] = ()
    ) -> dict[int, DealScore]:
        """Score the entered deals of one round at one table, carrying Bocks.

        Args:
            results: deal number (1..``deals``) -> result; deals not entered yet are missing.
            deals: the round's deals (the evening's deals per round).
            accepted: deal numbers the organiser accepted although impossible.

        Returns:
            Deal number -> matchsticks. A Bock's matchstick goes to the winner of the next
            deal (several Bocks add up); one on the round's last deal lapses; a deal not
            entered yet keeps what is carried to it (later deals get nothing from before it).

        Raises:
            ImpossibleResult: a result the rules refuse that is not in ``accepted``.
        """
        accepted = frozenset(accepted)
        scores: dict[int, DealScore] = {}
        carried = 0
        for number in range(1, deals + 1):
            result = results.get(number)
            if result is None:
                carried = 0
                continue
            score = self.score_accepted if number in accepted else self.score_deal
            scores[number] = score(result, carried)
            carried = self.carry_after(result, carried)
        return scores

    def carried_into(self, results: Mapping[int, DealResult], number: int) -> int:
        """Matchsticks carried into deal ``number`` by Bocks just before it (0 in most rule sets)."""
        carried = 0
        for n in range(1, number):
            result = results.get(n)
            carried = 0 if result is None else self.carry_after(result, carried)
        return carried

    def legal_results(self) -> list[DealResult]:
        """Every result :meth:`check_result` accepts, in a fixed order (winner, to nil, bonuses)."""
        results = []
        for winner in self.outcomes:
            for to_nil in (False, True) if winner in TEAMS else (False,):
                pairs = sorted(self.bonus_pairs) if winner != DRAW else [(0, 0)]
                results += [DealResult(winner, to_nil, a, b) for a, b in pairs]
        return results

    def points_table(self, max_carried: int) -> dict[str, list[int]]:
        """For the tablet's preview of entries kept offline: ``"winner|to_nil|bonus_a|bonus_b|
        carried"`` -> ``[points_a, points_b, carried_after, uses_deal]`` for every legal result
        and ``carried`` in 0..``max_carried`` (``to_nil`` as 0/1). The page looks numbers up here
        instead of knowing the rules."""
        carries = range(max_carried + 1) if self.no_winner == BOCK else range(1)
        table = {}
        for result, carried in itertools.product(self.legal_results(), carries):
            score = self._points(result, carried)
            key = f"{result.winner}|{int(result.to_nil)}|{result.bonus_a}|{result.bonus_b}|{carried}"
            table[key] = [score.a, score.b, self.carry_after(result, carried), int(self.uses_deal(result))]
        return table
