"""Tests of scoring.domain.rules: the model of Schwesing's daring and striking, one trick (one
deal's results are checked and scored by the rule sets: tests/domain/test_rulesets.py).

Source of the rules: McLeod, *Bruus*, sections "Daring and Striking" and
"Scoring". A trick is written as four plays in playing order; the leader's team is A unless
``leader_team`` says otherwise (so North-South is team A when North leads).
"""

from __future__ import annotations

import pytest

from scoring.domain.rules import TEAM_B, Matador, Play, TrickBonus, score_trick

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
