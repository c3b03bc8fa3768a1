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


# --- One way to show a matchstick value: half up, one decimal ------------------------------------


def test_one_decimal_rounds_half_up_on_the_exact_value():
    from decimal import Decimal

    from scoring.domain.ranking import one_decimal

    assert one_decimal(Fraction(57, 4)) == Decimal("14.3")  # 14.25: half to even would give 14.2
    assert one_decimal(Fraction(49, 20)) == Decimal("2.5")  # 2.45
    assert one_decimal(Fraction(1, 3)) == Decimal("0.3")
    assert one_decimal(Fraction(199, 20)) == Decimal("10.0")
    assert one_decimal(Fraction(-57, 4)) == Decimal("-14.3")
    assert one_decimal(0.15) == Decimal("0.2")  # the decimal text, not the binary value
    assert one_decimal(7) == Decimal("7.0")


# --- Sit-out credit while a round runs ------------------------------------------------------------


def test_sitout_credit_counts_only_finished_tables_and_is_provisional_until_all_are_confirmed():
    from scoring.domain.ranking import TableResult, round_sitout_credit

    # Six tables; one has finished (5:2), the others have not played yet or are half-way.
    running = (
        [TableResult(5, 2, entered=True)]
        + [TableResult(0, 0, entered=False)] * 3
        + [TableResult(3, 0, entered=False), TableResult(1, 1, entered=False)]
    )
    credit = round_sitout_credit(running)
    assert credit.value == Fraction(7, 2)  # not (5 + 2 + 4) / 12 = 0.9 ("1,1" on the projector)
    assert credit.provisional and credit.tables_counted == 1

    nobody = round_sitout_credit([TableResult(0, 0, entered=False)] * 6)  # no credit yet, nothing to mark
    assert nobody.value == 0 and not nobody.provisional and nobody.tables_counted == 0

    all_finished = round_sitout_credit([TableResult(5, 2, True, confirmed=True), TableResult(3, 4, True)])
    assert all_finished.value == Fraction(14, 4) and all_finished.provisional  # one not confirmed yet

    final = round_sitout_credit([TableResult(5, 2, True, True), TableResult(3, 4, False, True)])
    assert final.value == Fraction(14, 4) and not final.provisional and final.tables_counted == 2

    assert round_sitout_credit([]) == round_sitout_credit([TableResult(3, 1, False)])


def test_provisional_sessions_travel_with_the_score():
    score = PlayerScore("p", (Fraction(3), Fraction(7, 2)), provisional=frozenset({1}))
    line = rank([score])[0]
    assert line.score.provisional == {1} and line.score.total == Fraction(13, 2)
