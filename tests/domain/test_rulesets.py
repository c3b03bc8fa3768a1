"""Tests of scoring.domain.rulesets: the rule sets of the seeds (Schwesing, Treia, Danish Brus,
Ringkøbing, Bräus for four), their legal results, their matchsticks and the Treia Bock.

Sources: 000_717ae1d4fe10ece6.txt ("Scoring", "Treia Variant"), 001_bb435dd0d18900c3.txt
("Chancing and smacking", "Scoring", "Ringkøbing variant"), 003_… and 004_… (Bräus).
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
    TREIA,
    danish_trick,
    derive_danish_pairs,
    derive_ringkobing_pairs,
    rule_set,
)

HUND, BRUUS, SPITZ = Matador.TOLLER_HUND, Matador.BRUUS, Matador.SPITZ
DUD = Play()


def play(*matadors: Matador, holding: tuple[Matador, ...] = ()) -> Play:
    return Play(matadors=frozenset(matadors), holding=frozenset(holding))


# --- the possible bonus pairs, each derived from its own model ----------------------------------


def test_schwesing_and_treia_pairs_are_the_derived_daring_and_striking() -> None:
    assert rule_set(SCHWESING).bonus_pairs == rules.derive_bonus_pairs()
    assert rule_set(TREIA).bonus_pairs == rules.derive_bonus_pairs()


def test_danish_pairs_are_derived_by_enumerating_chancing_and_smacking() -> None:
    assert derive_danish_pairs() == DANISH_BONUS_PAIRS == rule_set(DANISH).bonus_pairs


def test_ringkobing_pairs_are_danish_plus_one_hawk() -> None:
    assert derive_ringkobing_pairs() == RINGKOBING_BONUS_PAIRS == rule_set(RINGKOBING).bonus_pairs
    assert (5, 0) in RINGKOBING_BONUS_PAIRS and (2, 2) in RINGKOBING_BONUS_PAIRS
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
            {TrickBonus(0, 0), TrickBonus(0, 2)},
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
            # the Galhund is first beaten by the partner's Brus: not smacked (1 for A if chanced);
            # the Brus (seat 2, not last) if chanced is smacked by the Spids of seat 3: 2 for B
            {TrickBonus(0, 0), TrickBonus(1, 0), TrickBonus(0, 2), TrickBonus(1, 2)},
            id="both teams can score in one trick",
        ),
        pytest.param([DUD, DUD, DUD, play(HUND)], {TrickBonus(0, 0)}, id="the last player to the trick cannot chance"),
    ],
)
def test_danish_trick(plays: list[Play], expected: set[TrickBonus]) -> None:
    assert danish_trick(plays) == expected


def test_danish_trick_no_chance_once_the_talon_is_exhausted() -> None:
    assert danish_trick([play(HUND), play(BRUUS), DUD, DUD], bunk_exhausted=True) == {TrickBonus(0, 0)}


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


def test_schwesing_rule_set_scores_as_the_rules_module() -> None:
    rs = rule_set(SCHWESING)
    for result in rs.legal_results():
        assert rs.score_deal(result) == rules.score_deal(result)


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
