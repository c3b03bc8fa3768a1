"""Tests of scoring.domain.rules: one deal of Bruus, Schwesing rules.

Source of the rules: seed file 000_717ae1d4fe10ece6.txt, sections "Daring and Striking" and
"Scoring". A trick is written as four plays in playing order; the leader's team is A unless
``leader_team`` says otherwise (so North-South is team A when North leads).
"""

from __future__ import annotations

import itertools

import pytest

from scoring.domain.rules import (
    MAX_BONUS,
    POSSIBLE_BONUS_PAIRS,
    TEAM_A,
    TEAM_B,
    DealResult,
    DealScore,
    ImpossibleResult,
    Matador,
    Play,
    TrickBonus,
    check_result,
    derive_bonus_pairs,
    score_deal,
    score_trick,
)

HUND = Matador.TOLLER_HUND
BRUUS = Matador.BRUUS
SPITZ = Matador.SPITZ
DUD = Play()


def play(*matadors: Matador, holding: tuple[Matador, ...] = ()) -> Play:
    return Play(matadors=frozenset(matadors), holding=frozenset(holding))


# --- score_trick: the worked examples of "Daring and Striking" ---------------------------------


def test_example_strike_of_hund_by_bruus_after_spitz() -> None:
    # North ♠8, East dud, South ♣J, West ♥K: South wins, but E-W score 2 for the strike.
    assert score_trick([play(HUND), DUD, play(SPITZ), play(BRUUS)]) == TrickBonus(a=0, b=2)


def test_example_counterstrike() -> None:
    # North ♦7, East ♠8, South ♥K, West ♣J: North wins, but E-W score 4 (counterstrike).
    assert score_trick([DUD, play(HUND), play(BRUUS), play(SPITZ)]) == TrickBonus(a=0, b=4)


def test_example_scores_for_the_other_team_when_it_leads() -> None:
    trick = [DUD, play(HUND), play(BRUUS), play(SPITZ)]
    assert score_trick(trick, leader_team=TEAM_B) == TrickBonus(a=4, b=0)


# --- score_trick: each line of the "Scoring" list ---------------------------------------------


@pytest.mark.parametrize(
    ("plays", "expected"),
    [
        pytest.param([play(HUND), DUD, DUD, DUD], TrickBonus(1, 0), id="dare of Hund: 1"),
        pytest.param([play(BRUUS), DUD, DUD, DUD], TrickBonus(1, 0), id="dare of Bruus: 1"),
        pytest.param(
            [play(HUND), play(BRUUS, holding=(SPITZ,)), DUD, DUD],
            TrickBonus(0, 2),
            id="strike of Hund by Bruus: 2",
        ),
        pytest.param([play(BRUUS), play(SPITZ), DUD, DUD], TrickBonus(0, 2), id="strike of Bruus by Spitz: 2"),
        pytest.param([play(HUND), play(BRUUS), DUD, DUD], TrickBonus(0, 3), id="strike of Hund and onward dare: 3"),
        pytest.param([play(HUND), play(BRUUS), play(SPITZ), DUD], TrickBonus(4, 0), id="counterstrike: 4"),
        pytest.param([play(HUND), DUD, play(BRUUS), DUD], TrickBonus(2, 0), id="dare of Hund and Bruus: 2"),
        pytest.param([play(HUND), DUD, play(BRUUS), play(SPITZ)], TrickBonus(0, 3), id="strike after two dares: 3"),
    ],
)
def test_scoring_list(plays: list[Play], expected: TrickBonus) -> None:
    assert score_trick(plays) == expected


# --- score_trick: the conditions and the notes ------------------------------------------------


def test_partners_bruus_is_no_strike_of_the_hund() -> None:
    # The partner's Bruus is no dare either (it holds the Spitz), so the Hund's dare stands.
    assert score_trick([play(HUND), DUD, play(BRUUS, holding=(SPITZ,)), DUD]) == TrickBonus(1, 0)


def test_partners_spitz_is_no_strike_of_the_bruus() -> None:
    assert score_trick([play(BRUUS), DUD, play(SPITZ), DUD]) == TrickBonus(1, 0)


def test_spitz_does_not_strike_the_hund() -> None:
    assert score_trick([play(HUND), play(SPITZ), DUD, DUD]) == TrickBonus(1, 0)


@pytest.mark.parametrize("matador", [HUND, BRUUS])
def test_last_player_cannot_dare(matador: Matador) -> None:
    assert score_trick([DUD, DUD, DUD, play(matador)]) == TrickBonus(0, 0)


@pytest.mark.parametrize("matador", [HUND, BRUUS])
def test_no_dare_when_the_bunk_is_exhausted(matador: Matador) -> None:
    assert score_trick([play(matador), DUD, DUD, DUD], bunk_exhausted=True) == TrickBonus(0, 0)


def test_no_strike_or_counterstrike_when_the_bunk_is_exhausted() -> None:
    trick = [play(HUND), play(BRUUS), play(SPITZ), DUD]
    assert score_trick(trick, bunk_exhausted=True) == TrickBonus(0, 0)


@pytest.mark.parametrize(("matador", "higher"), [(HUND, BRUUS), (BRUUS, SPITZ)])
def test_no_dare_when_the_player_holds_the_next_higher(matador: Matador, higher: Matador) -> None:
    assert score_trick([play(matador, holding=(higher,)), DUD, DUD, DUD]) == TrickBonus(0, 0)


def test_hund_after_bruus_in_an_earlier_trick_is_no_dare() -> None:
    assert score_trick([play(HUND), DUD, DUD, DUD], played_before=frozenset({BRUUS})) == TrickBonus(0, 0)


def test_hund_after_bruus_in_the_same_trick_is_no_dare() -> None:
    # The Bruus is no dare (its player holds the Spitz), and the Hund after it is none either.
    trick = [play(BRUUS, holding=(SPITZ,)), play(HUND), DUD, DUD]
    assert score_trick(trick) == TrickBonus(0, 0)


def test_bruus_after_spitz_is_no_dare() -> None:
    assert score_trick([play(SPITZ), play(BRUUS), DUD, DUD]) == TrickBonus(0, 0)
    assert score_trick([play(BRUUS), DUD, DUD, DUD], played_before=frozenset({SPITZ})) == TrickBonus(0, 0)


def test_hund_may_be_dared_after_the_spitz() -> None:
    assert score_trick([play(HUND), DUD, DUD, DUD], played_before=frozenset({SPITZ})) == TrickBonus(1, 0)


def test_two_matadors_played_at_once() -> None:
    # East follows to a double trick with ♠8 and ♥K: the Hund is no dare (East holds the Bruus
    # when playing it), the Bruus is a dare, struck by South's Spitz.
    assert score_trick([DUD, play(HUND, BRUUS), DUD, DUD]) == TrickBonus(0, 1)
    assert score_trick([DUD, play(HUND, BRUUS), play(SPITZ), DUD]) == TrickBonus(2, 0)


@pytest.mark.parametrize(
    ("plays", "played_before"),
    [
        pytest.param([DUD, DUD, DUD], frozenset(), id="three plays"),
        pytest.param([play(HUND, BRUUS), DUD, DUD, DUD], frozenset(), id="two matadors led"),
        pytest.param([play(HUND), play(HUND), DUD, DUD], frozenset(), id="Hund twice"),
        pytest.param([play(HUND), DUD, DUD, DUD], frozenset({HUND}), id="Hund played before"),
        pytest.param([play(HUND, holding=(BRUUS,)), play(BRUUS), DUD, DUD], frozenset(), id="held and played"),
        pytest.param([play(HUND, holding=(BRUUS,)), DUD, DUD, DUD], frozenset({BRUUS}), id="held after play"),
    ],
)
def test_impossible_tricks_are_refused(plays: list[Play], played_before: frozenset[Matador]) -> None:
    with pytest.raises(ValueError):
        score_trick(plays, played_before=played_before)


def test_unknown_leader_team_is_refused() -> None:
    with pytest.raises(ValueError):
        score_trick([DUD, DUD, DUD, DUD], leader_team="C")


# --- the bonus pairs of one deal ---------------------------------------------------------------


def test_possible_bonus_pairs_are_derived_from_the_model() -> None:
    assert derive_bonus_pairs() == POSSIBLE_BONUS_PAIRS


def test_possible_bonus_pairs_are_symmetric_in_the_teams() -> None:
    assert {(b, a) for a, b in POSSIBLE_BONUS_PAIRS} == POSSIBLE_BONUS_PAIRS


def test_max_bonus_is_the_counterstrike() -> None:
    assert MAX_BONUS == 4
    assert max(max(pair) for pair in derive_bonus_pairs()) == MAX_BONUS


def test_other_teams_possible_bonuses_run_from_zero() -> None:
    # The "impossible pair" message says "team B gets at most N"; that is only true if every
    # bonus from 0 to N is possible.
    for a, b in POSSIBLE_BONUS_PAIRS:
        assert all((a, smaller) in POSSIBLE_BONUS_PAIRS for smaller in range(b))


# --- score_deal and check_result ---------------------------------------------------------------


def test_plain_win() -> None:
    assert score_deal(DealResult(winner=TEAM_A, to_nil=False, bonus_a=0, bonus_b=0)) == DealScore(1, 0)
    assert score_deal(DealResult(winner=TEAM_B, to_nil=False, bonus_a=0, bonus_b=0)) == DealScore(0, 1)


def test_win_to_nil() -> None:
    assert score_deal(DealResult(winner=TEAM_A, to_nil=True, bonus_a=0, bonus_b=0)) == DealScore(2, 0)
    assert score_deal(DealResult(winner=TEAM_B, to_nil=True, bonus_a=0, bonus_b=0)) == DealScore(0, 2)


def test_win_with_bonuses() -> None:
    assert score_deal(DealResult(winner=TEAM_A, to_nil=False, bonus_a=1, bonus_b=2)) == DealScore(2, 2)
    assert score_deal(DealResult(winner=TEAM_B, to_nil=True, bonus_a=4, bonus_b=0)) == DealScore(4, 2)
    assert score_deal(DealResult(winner=TEAM_B, to_nil=False, bonus_a=0, bonus_b=3)) == DealScore(0, 4)


@pytest.mark.parametrize("winner", [TEAM_A, TEAM_B])
@pytest.mark.parametrize("to_nil", [False, True])
@pytest.mark.parametrize(("bonus_a", "bonus_b"), sorted(POSSIBLE_BONUS_PAIRS))
def test_every_possible_pair_is_accepted(winner: str, to_nil: bool, bonus_a: int, bonus_b: int) -> None:
    result = DealResult(winner=winner, to_nil=to_nil, bonus_a=bonus_a, bonus_b=bonus_b)
    check_result(result)
    tricks = 2 if to_nil else 1
    expected = DealScore(
        a=bonus_a + (tricks if winner == TEAM_A else 0), b=bonus_b + (tricks if winner == TEAM_B else 0)
    )
    assert score_deal(result) == expected


IMPOSSIBLE_PAIRS = sorted(set(itertools.product(range(7), repeat=2)) - POSSIBLE_BONUS_PAIRS)


@pytest.mark.parametrize(("bonus_a", "bonus_b"), IMPOSSIBLE_PAIRS)
def test_every_impossible_pair_is_rejected(bonus_a: int, bonus_b: int) -> None:
    with pytest.raises(ImpossibleResult) as caught:
        score_deal(DealResult(winner=TEAM_A, to_nil=False, bonus_a=bonus_a, bonus_b=bonus_b))
    expected = "bonus_too_high" if max(bonus_a, bonus_b) > MAX_BONUS else "impossible_bonus_pair"
    assert caught.value.code == expected
    assert str(caught.value)
    assert "%(" not in str(caught.value)


def test_impossible_pair_message_says_what_is_possible() -> None:
    with pytest.raises(ImpossibleResult) as caught:
        check_result(DealResult(winner=TEAM_A, to_nil=False, bonus_a=2, bonus_b=2))
    assert str(caught.value) == (
        "Team A 2 and team B 2 matchsticks for daring and striking cannot both happen in one "
        "deal: if team A gets 2, team B gets at most 1."
    )
    with pytest.raises(ImpossibleResult) as caught:
        check_result(DealResult(winner=TEAM_A, to_nil=False, bonus_a=1, bonus_b=3))
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
        score_deal(DealResult(**fields))  # type: ignore[arg-type]
    assert caught.value.code == code
    assert str(caught.value)
    assert "%(" not in str(caught.value)
    assert caught.value.message  # the msgid the Django layer translates


def test_bonus_message_names_the_team() -> None:
    with pytest.raises(ImpossibleResult) as caught:
        check_result(DealResult(winner=TEAM_A, to_nil=False, bonus_a=0, bonus_b=5))
    assert str(caught.value) == "Team B: at most 4 matchsticks for daring and striking are possible in one deal."
