"""Tests of scoring.domain.rulesets: the rule sets of docs/rules.md (Schwesing, Treia, Danish Brus,
Ringkøbing, Bräus for four), their legal results, their matchsticks and the Treia Bock.

Sources: McLeod, *Bruus* ("Scoring", "Treia Variant"), *Brus* (encyclopedia)
("Chancing and smacking", "Scoring", "Ringkøbing variant"), *Bräus* (Gotland) and *Bräus* (encyclopedia).
"""

from __future__ import annotations

import itertools

import pytest

from scoring.domain import rules
from scoring.domain.rules import TEAM_A, TEAM_B, DealResult, DealScore, ImpossibleResult, Matador, Play, TrickBonus
from scoring.domain.rulesets import (
    BOCK,
    BRAEUS,
    BRAEUS6,
    DANISH,
    DANISH_BONUS_PAIRS,
    DRAW,
    RINGKOBING,
    RINGKOBING_BONUS_PAIRS,
    RULE_SETS,
    SCHWESING,
    SCHWESING_BONUS_PAIRS,
    TREIA,
    danish_trick,
    derive_danish_pairs,
    derive_ringkobing_pairs,
    rule_set,
)

HUND, BRUUS, SPITZ = Matador.TOLLER_HUND, Matador.BRUUS, Matador.SPITZ
DUD = Play()
SCHWESING_RULES = rule_set(SCHWESING)


def play(*matadors: Matador, holding: tuple[Matador, ...] = ()) -> Play:
    return Play(matadors=frozenset(matadors), holding=frozenset(holding))


# --- the possible bonus pairs, each derived from its own model ----------------------------------


def test_schwesing_and_treia_pairs_are_the_derived_daring_and_striking() -> None:
    assert rules.derive_bonus_pairs() == SCHWESING_BONUS_PAIRS
    assert rule_set(SCHWESING).bonus_pairs == rules.derive_bonus_pairs()
    assert rule_set(TREIA).bonus_pairs == rules.derive_bonus_pairs()


def test_schwesing_bonus_pairs_are_symmetric_in_the_teams() -> None:
    assert {(b, a) for a, b in SCHWESING_BONUS_PAIRS} == SCHWESING_BONUS_PAIRS


def test_schwesing_max_bonus_is_the_counterstrike() -> None:
    assert SCHWESING_RULES.max_bonus == 4
    assert max(max(pair) for pair in rules.derive_bonus_pairs()) == SCHWESING_RULES.max_bonus


def test_schwesing_other_teams_possible_bonuses_run_from_zero() -> None:
    # The "impossible pair" message says "team B gets at most N"; that is only true if every
    # bonus from 0 to N is possible.
    for a, b in SCHWESING_BONUS_PAIRS:
        assert all((a, smaller) in SCHWESING_BONUS_PAIRS for smaller in range(b))


def test_danish_pairs_are_derived_by_enumerating_chancing_and_smacking() -> None:
    assert derive_danish_pairs() == DANISH_BONUS_PAIRS == rule_set(DANISH).bonus_pairs


def test_ringkobing_pairs_are_danish_plus_one_hawk() -> None:
    assert derive_ringkobing_pairs() == RINGKOBING_BONUS_PAIRS == rule_set(RINGKOBING).bonus_pairs
    assert (5, 0) in RINGKOBING_BONUS_PAIRS and (2, 3) in RINGKOBING_BONUS_PAIRS
    assert (5, 1) not in RINGKOBING_BONUS_PAIRS  # only one ♣K: one hawk a deal


def test_braeus_has_no_bonus() -> None:
    assert rule_set(BRAEUS).bonus_pairs == {(0, 0)}
    assert not rule_set(BRAEUS).has_bonus and rule_set(BRAEUS).max_bonus == 0


# --- Danish chancing and smacking, one trick ----------------------------------------------------


@pytest.mark.parametrize(
    ("plays", "expected"),
    [
        pytest.param([play(HUND), DUD, DUD, DUD], {TrickBonus(0, 0), TrickBonus(1, 0)}, id="chance is a choice"),
        pytest.param(
            [play(HUND), play(BRUUS, holding=(SPITZ,)), DUD, DUD],
            # the Brus's player holds the Spids: chancing the Brus is unlawful, automatically smacked
            {TrickBonus(0, 0), TrickBonus(0, 2), TrickBonus(2, 0), TrickBonus(2, 2)},
            id="Galhund smacked by Brus: 2",
        ),
        pytest.param(
            [play(HUND), play(SPITZ), DUD, DUD], {TrickBonus(0, 0), TrickBonus(0, 2)}, id="smacked by Spids: 2"
        ),
        pytest.param(
            [play(HUND), play(BRUUS), play(SPITZ), DUD],
            # nothing chanced; Galhund chanced: oversmack 3; Brus chanced and smacked by Spids: 2
            # for A; both chanced: oversmack of a chanced Brus 4
            {TrickBonus(0, 0), TrickBonus(3, 0), TrickBonus(2, 0), TrickBonus(4, 0)},
            id="oversmack: 3, or 4 when the Brus was chanced",
        ),
        pytest.param(
            [play(HUND), DUD, play(BRUUS), play(SPITZ)],
            # the Spids of seat 3 smacks the chanced Galhund too, though the partner's Brus beat it
            # first (any higher card of an opponent smacks); and the Brus if chanced: 2 each for B
            {TrickBonus(0, 0), TrickBonus(0, 2), TrickBonus(0, 4)},
            id="any higher matador of an opponent smacks",
        ),
        pytest.param(
            [DUD, DUD, DUD, play(HUND)],
            {TrickBonus(0, 0), TrickBonus(2, 0)},
            id="the last player to the trick chances unlawfully: automatically smacked",
        ),
    ],
)
def test_danish_trick(plays: list[Play], expected: set[TrickBonus]) -> None:
    assert danish_trick(plays) == expected


def test_danish_trick_every_chance_is_unlawful_once_the_talon_is_exhausted() -> None:
    assert danish_trick([play(HUND), play(BRUUS), DUD, DUD], bunk_exhausted=True) == {
        TrickBonus(0, 0),
        TrickBonus(0, 2),  # A's Galhund automatically smacked
        TrickBonus(2, 0),  # B's Brus automatically smacked
        TrickBonus(2, 2),
    }


# --- legal results, by enumeration --------------------------------------------------------------

OUTCOMES = ("A", "B", BOCK, DRAW, "", "C")


@pytest.mark.parametrize("code", sorted(RULE_SETS))
def test_legal_results_are_exactly_what_check_result_accepts(code: str) -> None:
    """Every combination of outcome, to nil and bonuses 0..6 is accepted exactly when it is one of
    legal_results()."""
    rs = rule_set(code)
    legal = set(rs.legal_results())
    for winner, to_nil, a, b in itertools.product(OUTCOMES, (False, True), range(7), range(7)):
        result = DealResult(winner, to_nil, a, b)
        if result in legal:
            rs.check_result(result)
        else:
            with pytest.raises(ImpossibleResult):
                rs.check_result(result)


def test_outcomes_per_rule_set() -> None:
    assert rule_set(SCHWESING).outcomes == (TEAM_A, TEAM_B)
    assert rule_set(TREIA).outcomes == (TEAM_A, TEAM_B, BOCK)
    assert rule_set(DANISH).outcomes == (TEAM_A, TEAM_B)
    assert rule_set(BRAEUS).outcomes == (TEAM_A, TEAM_B, DRAW)
    assert rule_set(BRAEUS).tricks_to_win == 6 and rule_set(TREIA).cards == 32
    assert all(rs.players_per_table == 4 for code, rs in RULE_SETS.items() if code != BRAEUS6)
    six = rule_set(BRAEUS6)
    assert (six.players_per_team, six.players_per_table) == (3, 6)
    assert (six.outcomes, six.tricks_to_win, six.bonus_pairs) == ((TEAM_A, TEAM_B, DRAW), 6, {(0, 0)})


def test_messages_say_what_is_wrong() -> None:
    with pytest.raises(ImpossibleResult) as bock_to_nil:
        rule_set(TREIA).check_result(DealResult(BOCK, True, 0, 0))
    assert bock_to_nil.value.code == "invalid_to_nil"
    with pytest.raises(ImpossibleResult) as bonus:
        rule_set(BRAEUS).check_result(DealResult(TEAM_A, False, 1, 0))
    assert bonus.value.code == "no_bonus"
    with pytest.raises(ImpossibleResult) as bock:
        rule_set(SCHWESING).check_result(DealResult(BOCK, False, 0, 0))
    assert bock.value.code == "invalid_winner"


@pytest.mark.parametrize(
    ("code", "result", "expected"),
    [
        (TREIA, DealResult(TEAM_A, True, 0, 1), DealScore(2, 1)),
        (DANISH, DealResult(TEAM_B, True, 1, 0), DealScore(1, 2)),
        (RINGKOBING, DealResult(TEAM_A, False, 5, 0), DealScore(6, 0)),
        (BRAEUS, DealResult(TEAM_B, True, 0, 0), DealScore(0, 2)),
        (BRAEUS, DealResult(DRAW, False, 0, 0), DealScore(0, 0)),
        (TREIA, DealResult(BOCK, False, 1, 0), DealScore(1, 0)),
    ],
)
def test_score_deal(code: str, result: DealResult, expected: DealScore) -> None:
    assert rule_set(code).score_deal(result) == expected


def test_braeus_draw_does_not_use_up_a_deal() -> None:
    rs = rule_set(BRAEUS)
    assert not rs.uses_deal(DealResult(DRAW, False, 0, 0))
    assert rs.uses_deal(DealResult(TEAM_A, False, 0, 0))


# --- Schwesing: one deal scored and checked by its rule set -------------------------------------


def test_plain_win() -> None:
    assert SCHWESING_RULES.score_deal(DealResult(winner=TEAM_A, to_nil=False, bonus_a=0, bonus_b=0)) == DealScore(1, 0)
    assert SCHWESING_RULES.score_deal(DealResult(winner=TEAM_B, to_nil=False, bonus_a=0, bonus_b=0)) == DealScore(0, 1)


def test_win_to_nil() -> None:
    assert SCHWESING_RULES.score_deal(DealResult(winner=TEAM_A, to_nil=True, bonus_a=0, bonus_b=0)) == DealScore(2, 0)
    assert SCHWESING_RULES.score_deal(DealResult(winner=TEAM_B, to_nil=True, bonus_a=0, bonus_b=0)) == DealScore(0, 2)


def test_win_with_bonuses() -> None:
    assert SCHWESING_RULES.score_deal(DealResult(winner=TEAM_A, to_nil=False, bonus_a=1, bonus_b=2)) == DealScore(2, 2)
    assert SCHWESING_RULES.score_deal(DealResult(winner=TEAM_B, to_nil=True, bonus_a=4, bonus_b=0)) == DealScore(4, 2)
    assert SCHWESING_RULES.score_deal(DealResult(winner=TEAM_B, to_nil=False, bonus_a=0, bonus_b=3)) == DealScore(0, 4)


@pytest.mark.parametrize("winner", [TEAM_A, TEAM_B])
@pytest.mark.parametrize("to_nil", [False, True])
@pytest.mark.parametrize(("bonus_a", "bonus_b"), sorted(SCHWESING_BONUS_PAIRS))
def test_every_possible_pair_is_accepted(winner: str, to_nil: bool, bonus_a: int, bonus_b: int) -> None:
    result = DealResult(winner=winner, to_nil=to_nil, bonus_a=bonus_a, bonus_b=bonus_b)
    SCHWESING_RULES.check_result(result)
    tricks = 2 if to_nil else 1
    expected = DealScore(
        a=bonus_a + (tricks if winner == TEAM_A else 0), b=bonus_b + (tricks if winner == TEAM_B else 0)
    )
    assert SCHWESING_RULES.score_deal(result) == expected


IMPOSSIBLE_PAIRS = sorted(set(itertools.product(range(7), repeat=2)) - SCHWESING_BONUS_PAIRS)


@pytest.mark.parametrize(("bonus_a", "bonus_b"), IMPOSSIBLE_PAIRS)
def test_every_impossible_pair_is_rejected(bonus_a: int, bonus_b: int) -> None:
    with pytest.raises(ImpossibleResult) as caught:
        SCHWESING_RULES.score_deal(DealResult(winner=TEAM_A, to_nil=False, bonus_a=bonus_a, bonus_b=bonus_b))
    expected = "bonus_too_high" if max(bonus_a, bonus_b) > SCHWESING_RULES.max_bonus else "impossible_bonus_pair"
    assert caught.value.code == expected
    assert str(caught.value)
    assert "%(" not in str(caught.value)


def test_impossible_pair_message_says_what_is_possible() -> None:
    with pytest.raises(ImpossibleResult) as caught:
        SCHWESING_RULES.check_result(DealResult(winner=TEAM_A, to_nil=False, bonus_a=2, bonus_b=2))
    assert str(caught.value) == (
        "Team A 2 and team B 2 matchsticks for daring and striking cannot both happen in one "
        "deal: if team A gets 2, team B gets at most 1."
    )
    with pytest.raises(ImpossibleResult) as caught:
        SCHWESING_RULES.check_result(DealResult(winner=TEAM_A, to_nil=False, bonus_a=1, bonus_b=3))
    assert str(caught.value).endswith("if team B gets 3, team A gets at most 0.")
    assert caught.value.params["other_max"] == 0


@pytest.mark.parametrize(
    ("changes", "code"),
    [
        ({"winner": "C"}, "invalid_winner"),
        ({"winner": "a"}, "invalid_winner"),
        ({"winner": None}, "invalid_winner"),
        ({"to_nil": 1}, "invalid_to_nil"),
        ({"to_nil": "yes"}, "invalid_to_nil"),
        ({"to_nil": None}, "invalid_to_nil"),
        ({"bonus_a": 1.0}, "bonus_not_whole_number"),
        ({"bonus_b": 1.5}, "bonus_not_whole_number"),
        ({"bonus_a": "1"}, "bonus_not_whole_number"),
        ({"bonus_b": True}, "bonus_not_whole_number"),
        ({"bonus_a": None}, "bonus_not_whole_number"),
        ({"bonus_a": -1}, "bonus_negative"),
        ({"bonus_b": -2}, "bonus_negative"),
        ({"bonus_a": 5}, "bonus_too_high"),
        ({"bonus_b": 99}, "bonus_too_high"),
    ],
)
def test_bad_entries_are_rejected_with_their_own_code(changes: dict[str, object], code: str) -> None:
    fields: dict[str, object] = {"winner": TEAM_A, "to_nil": False, "bonus_a": 0, "bonus_b": 0, **changes}
    with pytest.raises(ImpossibleResult) as caught:
        SCHWESING_RULES.score_deal(DealResult(**fields))  # type: ignore[arg-type]
    assert caught.value.code == code
    assert str(caught.value)
    assert "%(" not in str(caught.value)
    assert caught.value.message  # the msgid the Django layer translates


def test_bonus_message_names_the_team() -> None:
    with pytest.raises(ImpossibleResult) as caught:
        SCHWESING_RULES.check_result(DealResult(winner=TEAM_A, to_nil=False, bonus_a=0, bonus_b=5))
    assert str(caught.value) == "Team B: at most 4 matchsticks for daring and striking are possible in one deal."


# --- the Treia Bock: carried to the next deal's winner, several add up, lapses at the end -------


def treia_round(*results: DealResult | None, deals: int = 4) -> list[tuple[int, int] | None]:
    scores = rule_set(TREIA).score_round({n: r for n, r in enumerate(results, start=1) if r is not None}, deals=deals)
    return [(scores[n].a, scores[n].b) if n in scores else None for n in range(1, len(results) + 1)]


A = DealResult(TEAM_A, False, 0, 0)
B_NIL = DealResult(TEAM_B, True, 0, 0)
BOCK_DEAL = DealResult(BOCK, False, 0, 0)


def test_bock_goes_to_the_winner_of_the_next_deal() -> None:
    assert treia_round(BOCK_DEAL, A, A, A) == [(0, 0), (2, 0), (1, 0), (1, 0)]


def test_several_bocks_add_up() -> None:
    assert treia_round(BOCK_DEAL, BOCK_DEAL, B_NIL, A) == [(0, 0), (0, 0), (0, 4), (1, 0)]


def test_bock_on_the_last_deal_lapses() -> None:
    assert treia_round(A, A, A, BOCK_DEAL) == [(1, 0), (1, 0), (1, 0), (0, 0)]
    assert sum(a + b for a, b in treia_round(A, BOCK_DEAL, BOCK_DEAL, BOCK_DEAL)) == 1


def test_bock_keeps_its_bonuses_and_carries_only_the_trick_point() -> None:
    assert treia_round(DealResult(BOCK, False, 0, 2), A, deals=2) == [(0, 2), (2, 0)]


def test_a_deal_not_entered_yet_keeps_what_is_carried_to_it() -> None:
    assert treia_round(BOCK_DEAL, None, A) == [(0, 0), None, (1, 0)]
    assert rule_set(TREIA).carried_into({1: BOCK_DEAL}, 2) == 1
    assert rule_set(TREIA).carried_into({1: BOCK_DEAL, 2: BOCK_DEAL}, 3) == 2
    assert rule_set(SCHWESING).carried_into({1: A}, 2) == 0


def test_points_table_agrees_with_score_deal() -> None:
    for rs in RULE_SETS.values():
        table = rs.points_table(max_carried=3)
        for result in rs.legal_results():
            for carried in range(4) if rs.no_winner == BOCK else range(1):
                key = f"{result.winner}|{int(result.to_nil)}|{result.bonus_a}|{result.bonus_b}|{carried}"
                score = rs.score_deal(result, carried)
                assert table[key][:2] == [score.a, score.b]
                assert table[key][2] == rs.carry_after(result, carried)
                assert table[key][3] == int(rs.uses_deal(result))
