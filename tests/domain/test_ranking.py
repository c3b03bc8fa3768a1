from fractions import Fraction

from scoring.domain.ranking import PlayerScore, rank, sitout_credit


def test_source_example_total_is_sum_of_sessions():
    score = PlayerScore("p", (Fraction(18), Fraction(23), Fraction(33)))
    assert score.total == 74


def test_equal_totals_share_a_place_and_the_next_place_is_skipped():
    scores = [
        PlayerScore("a", (Fraction(10),)),
        PlayerScore("b", (Fraction(7),)),
        PlayerScore("c", (Fraction(7),)),
        PlayerScore("d", (Fraction(3),)),
    ]
    lines = rank(scores)
    assert [(line.score.player, line.place, line.shared) for line in lines] == [
        ("a", 1, False),
        ("b", 2, True),
        ("c", 2, True),
        ("d", 4, False),
    ]


def test_ties_ordered_by_name_key_without_changing_places():
    scores = [PlayerScore("Zoe", (Fraction(5),)), PlayerScore("Anke", (Fraction(5),))]
    lines = rank(scores, name_key=lambda s: s.player)
    assert [line.score.player for line in lines] == ["Anke", "Zoe"]
    assert [line.place for line in lines] == [1, 1]


def test_sitout_credit_is_the_exact_average_of_the_teams_that_played():
    assert sitout_credit([7, 2, 5, 5, 3, 4]) == Fraction(26, 6)
    assert sitout_credit([]) == 0


def test_fractional_credit_breaks_no_tie_wrongly():
    a = PlayerScore("a", (Fraction(13, 3),))
    b = PlayerScore("b", (Fraction(4),))
    assert [line.score.player for line in rank([b, a])] == ["a", "b"]
