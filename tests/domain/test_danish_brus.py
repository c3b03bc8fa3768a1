"""Danish Brus and its Ringkøbing variant exactly as the source says: chancing, smacking by any
higher matador of an opponent, oversmack 3 or 4, unlawful chances automatically smacked; and the
legal bonus pairs of both rule sets against a derivation of this test's own.

Source: *Brus* (encyclopedia), "Chancing and smacking", "Scoring", "Ringkøbing variant".
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterator

import pytest

from scoring.domain.rules import TEAM_A, TEAM_B, DealResult, ImpossibleResult, Matador, Play, TrickBonus
from scoring.domain.rulesets import (
    DANISH,
    DANISH_BONUS_PAIRS,
    RINGKOBING,
    RINGKOBING_BONUS_PAIRS,
    SCHWESING_BONUS_PAIRS,
    danish_events,
    danish_trick,
    derive_danish_pairs,
    derive_ringkobing_pairs,
    rule_set,
    score_danish_trick,
)

GALHUND, BRUS, SPIDS = Matador.TOLLER_HUND, Matador.BRUUS, Matador.SPITZ
DUD = Play()


def play(*matadors: Matador, holding: tuple[Matador, ...] = ()) -> Play:
    return Play(matadors=frozenset(matadors), holding=frozenset(holding))


def scored(plays: list[Play], chanced: set[Matador], **state: object) -> TrickBonus:
    """One trick scored with the given matadors chanced (leader's team A unless said)."""
    state = {"leader_team": TEAM_A, "played_before": frozenset(), "bunk_exhausted": False, **state}
    events = danish_events(plays, **state)  # type: ignore[arg-type]
    return score_danish_trick(events, frozenset(i for i, e in enumerate(events) if e.matador in chanced))


# --- the examples ------------------------------------------------------------------------


def test_unlawful_chance_is_automatically_smacked_so_a_deal_can_give_2_to_2() -> None:
    # Trick 1: team A chances the Brus, team B smacks it with the Spids: B 2.
    first = scored([play(BRUS), play(SPIDS), DUD, DUD], {BRUS})
    assert first == TrickBonus(0, 2)
    # Later, the talon exhausted, a B player chances the Galhund: unlawful (the talon is exhausted
    # and no higher matador is left), so it is automatically smacked: A 2.
    later = scored(
        [DUD, play(GALHUND), DUD, DUD], {GALHUND}, played_before=frozenset({BRUS, SPIDS}), bunk_exhausted=True
    )
    assert later == TrickBonus(2, 0)
    assert (first.a + later.a, first.b + later.b) == (2, 2)


@pytest.mark.parametrize("winner", [TEAM_A, TEAM_B])
@pytest.mark.parametrize("five_nil", [False, True])
def test_danish_brus_accepts_2_to_2_with_either_winner(winner: str, five_nil: bool) -> None:
    rules = rule_set(DANISH)
    rules.check_result(DealResult(winner, five_nil, 2, 2))
    trick_points = 2 if five_nil else 1
    score = rules.score_deal(DealResult(winner, five_nil, 2, 2))
    assert (score.a, score.b) == (2 + trick_points * (winner == TEAM_A), 2 + trick_points * (winner == TEAM_B))


@pytest.mark.parametrize("winner", [TEAM_A, TEAM_B])
@pytest.mark.parametrize("jan", [False, True])
@pytest.mark.parametrize(("bonus_a", "bonus_b"), [(2, 3), (3, 2), (2, 2)])
def test_ringkobing_accepts_2_to_2_plus_a_hawk(winner: str, jan: bool, bonus_a: int, bonus_b: int) -> None:
    rule_set(RINGKOBING).check_result(DealResult(winner, jan, bonus_a, bonus_b))


def test_a_chanced_galhund_is_smacked_by_any_higher_matador_of_an_opponent() -> None:
    # A chances the ♠8, A's partner plays the ♥K (not chanced), B plays the ♣J: B smacks, 2.
    assert scored([play(GALHUND), DUD, play(BRUS), play(SPIDS)], {GALHUND}) == TrickBonus(0, 2)
    # Not "A 1": whatever the players chose, A cannot score in this trick.
    assert all(bonus.a == 0 for bonus in danish_trick([play(GALHUND), DUD, play(BRUS), play(SPIDS)]))
    # The Spids smacks a chanced Galhund directly, and so does the Brus after a partner's Spids.
    assert scored([play(GALHUND), play(SPIDS), DUD, DUD], {GALHUND}) == TrickBonus(0, 2)
    assert scored([play(GALHUND), DUD, play(SPIDS), play(BRUS)], {GALHUND}) == TrickBonus(0, 2)


# --- chancing and smacking, one sentence of the source at a time ---------------------------------


def test_a_chance_nobody_smacks_scores_1() -> None:
    assert scored([play(GALHUND), DUD, DUD, DUD], {GALHUND}) == TrickBonus(1, 0)
    assert scored([DUD, play(BRUS), DUD, DUD], {BRUS}) == TrickBonus(0, 1)
    # A partner's higher matador is no smack.
    assert scored([play(BRUS), DUD, play(SPIDS), DUD], {BRUS}) == TrickBonus(1, 0)


def test_chancing_is_a_choice() -> None:
    assert scored([play(GALHUND), play(BRUS), DUD, DUD], set()) == TrickBonus(0, 0)
    assert danish_trick([play(GALHUND), DUD, DUD, DUD]) == {TrickBonus(0, 0), TrickBonus(1, 0)}


@pytest.mark.parametrize(
    ("brus_chanced", "expected"), [(False, TrickBonus(3, 0)), (True, TrickBonus(4, 0))], ids=["3", "4"]
)
def test_oversmack_is_3_or_4_when_the_brus_was_chanced(brus_chanced: bool, expected: TrickBonus) -> None:
    # A chances the ♠8, B smacks it with the ♥K, A's ♣J beats the ♥K in turn.
    chanced = {GALHUND, BRUS} if brus_chanced else {GALHUND}
    assert scored([play(GALHUND), play(BRUS), play(SPIDS), DUD], chanced) == expected


def test_brus_smacked_by_the_spids_without_a_chanced_galhund_is_a_smack() -> None:
    assert scored([play(GALHUND), play(BRUS), play(SPIDS), DUD], {BRUS}) == TrickBonus(2, 0)


@pytest.mark.parametrize(
    ("plays", "state"),
    [
        pytest.param([DUD, DUD, DUD, play(GALHUND)], {}, id="last to the trick"),
        pytest.param([play(GALHUND), DUD, DUD, DUD], {"bunk_exhausted": True}, id="talon exhausted"),
        pytest.param([play(BRUS, holding=(SPIDS,)), DUD, DUD, DUD], {}, id="chancer holds the only higher"),
        pytest.param([play(BRUS), DUD, DUD, DUD], {"played_before": frozenset({SPIDS})}, id="no higher left"),
        pytest.param([DUD, play(GALHUND, BRUS), DUD, DUD], {"played_before": frozenset({SPIDS})}, id="plays both"),
    ],
)
def test_an_unlawful_chance_gives_the_opponents_2(plays: list[Play], state: dict[str, object]) -> None:
    chanced = {m for p in plays for m in p.matadors}
    bonus = scored(plays, {min(chanced)}, **state)
    chancer_is_a = next(seat for seat, p in enumerate(plays) if p.matadors) % 2 == 0
    assert bonus == (TrickBonus(0, 2) if chancer_is_a else TrickBonus(2, 0))


def test_any_higher_matador_left_makes_a_chance_lawful() -> None:
    # The chancer holds the ♥K, but the ♣J is still out: the chance of the ♠8 is lawful.
    assert scored([play(GALHUND, holding=(BRUS,)), DUD, DUD, DUD], {GALHUND}) == TrickBonus(1, 0)
    # The ♥K is gone, the ♣J is out: lawful, and the ♣J of an opponent smacks it.
    gone = {"played_before": frozenset({BRUS})}
    assert scored([play(GALHUND), DUD, DUD, DUD], {GALHUND}, **gone) == TrickBonus(1, 0)
    assert scored([play(GALHUND), play(SPIDS), DUD, DUD], {GALHUND}, **gone) == TrickBonus(0, 2)


def test_both_teams_can_score_in_one_trick() -> None:
    # A chances the ♠8, B's ♥K and B's ♣J follow: smacked (B 2), no oversmack (the ♣J is B's);
    # B's ♥K chanced too: its partner's ♣J is no smack, the chance scores 1.
    assert scored([play(GALHUND), play(BRUS), DUD, play(SPIDS)], {GALHUND}) == TrickBonus(0, 2)
    assert scored([play(GALHUND), play(BRUS), DUD, play(SPIDS)], {GALHUND, BRUS}) == TrickBonus(0, 3)
    # A chances the ♠8, B's ♣J smacks it (B 2); B's ♥K, last to the trick, chanced: unlawful (A 2).
    assert scored([play(GALHUND), play(SPIDS), DUD, play(BRUS)], {GALHUND, BRUS}) == TrickBonus(2, 2)


# --- the legal sets: the rule sets' derivation against this test's own --------------------------
#
# This derivation enumerates concrete deals instead of trick states: who owns each matador, in
# which trick (among the tricks with matadors) each played one falls, who leads each of those
# tricks, from which trick on the talon is exhausted, from which trick on the owner of a matador
# has it in hand, and which Galhund and Brus are chanced. Each trick is scored from the source's
# sentences by `_source_trick` below, written apart from scoring.domain.rulesets.

PLAYERS = range(4)


def _team(player: int) -> str:
    return TEAM_A if player % 2 == 0 else TEAM_B


@functools.cache
def _source_trick(
    cards: tuple[tuple[int, Matador, frozenset[Matador]], ...], gone: frozenset[Matador], exhausted: bool
) -> frozenset[tuple[int, int]]:
    """Every (A, B) one trick can give. ``cards``: (seat, matador, the matadors its player holds
    after the play) in playing order; ``gone``: matadors played in earlier tricks."""
    options = set()
    chanceable = [i for i, (_, m, _) in enumerate(cards) if m in (GALHUND, BRUS)]
    for size in range(len(chanceable) + 1):
        for chanced in itertools.combinations(chanceable, size):
            points = {TEAM_A: 0, TEAM_B: 0}
            oversmacked_brus = set()
            for i in chanced:
                seat, card, held = cards[i]
                team = _team(seat)  # seat 0 leads; the leader's team is A in the seat numbering
                foe = TEAM_B if team == TEAM_A else TEAM_A
                before = gone | {m for s, m, _ in cards if s < seat}
                same_play = {m for s, m, _ in cards if s == seat}
                # "only permitted if a higher matador is still in play and not held by the
                # chancer, if the talon is not exhausted, if another player has yet to play"
                higher_out = [m for m in Matador if m > card and m not in before | same_play | held]
                lawful = bool(higher_out) and seat < 3 and not exhausted
                if i in oversmacked_brus:
                    continue
                if not lawful:  # "automatically smacked"
                    points[foe] += 2
                    continue
                after = cards[i + 1 :]
                smacks = [(s, m) for s, m, _ in after if m > card and _team(s) == foe]
                if not smacks:
                    points[team] += 1
                elif card == GALHUND and any(
                    m == BRUS and any(m2 == SPIDS and _team(s2) == team and s2 > s for s2, m2, _ in after)
                    for s, m in smacks
                ):
                    brus_index = next(j for j, (s, m, _) in enumerate(cards) if m == BRUS)
                    points[team] += 4 if brus_index in chanced else 3
                    oversmacked_brus.add(brus_index)
                else:
                    points[foe] += 2
            options.add((points[TEAM_A], points[TEAM_B]))
    return frozenset(options)


def _orders(cards: tuple[Matador, ...]) -> Iterator[tuple[tuple[Matador, ...], ...]]:
    """Every ordered split of ``cards`` into tricks."""
    if not cards:
        yield ()
        return
    for size in range(1, len(cards) + 1):
        for first in itertools.combinations(cards, size):
            rest = tuple(c for c in cards if c not in first)
            for tail in _orders(rest):
                yield (first, *tail)


def _concrete_deals() -> Iterator[frozenset[tuple[int, int]]]:
    """For each concrete deal but its leaders, the (A, B) pairs its leaders and chances can give.

    The leader of each trick is chosen apart from the others' (any player can win the trick
    before), so the pairs of a deal are the sums over its tricks of what each trick gives under
    any of its leaders."""
    for count in range(4):
        for played in itertools.combinations(tuple(Matador), count):
            unplayed = [m for m in Matador if m not in played]
            for tricks in _orders(played):
                trick_of = {m: t for t, trick in enumerate(tricks) for m in trick}
                last = {m: trick_of.get(m, len(tricks)) for m in Matador}
                for owners in itertools.product(PLAYERS, repeat=3):
                    owner = dict(zip(Matador, owners, strict=True))
                    # A matador's owner has it in hand from trick `since` on (or never, if
                    # unplayed); only the tricks where the owner plays a lower matador matter.
                    sinces = [
                        [
                            *(t for t in range(last[h]) if any(m < h and owner[m] == owner[h] for m in tricks[t])),
                            last[h] + (h in unplayed),
                        ]
                        for h in Matador
                    ]
                    for since in itertools.product(*sinces):
                        since_of = dict(zip(Matador, since, strict=True))
                        for exhausted_from in range(len(tricks) + 1):
                            totals = {(0, 0)}
                            for t in range(len(tricks)):
                                options = _trick_pairs(tricks, t, owner, since_of, t >= exhausted_from)
                                totals = {(a + x, b + y) for a, b in totals for x, y in options}
                            yield frozenset(totals)


def _trick_pairs(tricks, t, owner, since_of, exhausted) -> set[tuple[int, int]]:
    """What trick ``t`` can give (A, B), under any leader who does not lead two matadors."""
    trick = tricks[t]
    gone = frozenset(m for earlier in tricks[:t] for m in earlier)
    pairs: set[tuple[int, int]] = set()
    for leader in PLAYERS:
        if sum(owner[m] == leader for m in trick) > 1:
            continue  # nobody leads two matadors: they differ in rank
        cards = []
        for m in sorted(trick, key=lambda m: ((owner[m] - leader) % 4, m)):
            held = frozenset(
                h for h in Matador if owner[h] == owner[m] and h not in gone | set(trick) and since_of[h] <= t
            )
            cards.append(((owner[m] - leader) % 4, m, held))
        options = _source_trick(tuple(cards), gone, exhausted)
        if _team(leader) == TEAM_B:  # seats count from the leader: swap to the teams A and B
            options = frozenset((b, a) for a, b in options)
        pairs |= options
    return pairs


@functools.cache
def independent_danish_pairs() -> frozenset[tuple[int, int]]:
    return frozenset().union(*_concrete_deals())


def test_danish_legal_set_is_the_independent_derivation() -> None:
    expected = independent_danish_pairs()
    assert derive_danish_pairs() == DANISH_BONUS_PAIRS == rule_set(DANISH).bonus_pairs == expected
    # Beside Schwesing's pairs, only 2:2 (an unlawful chance, automatically smacked).
    assert expected - SCHWESING_BONUS_PAIRS == {(2, 2)}
    assert expected >= SCHWESING_BONUS_PAIRS


def test_ringkobing_legal_set_is_danish_plus_at_most_one_hawk() -> None:
    # "If a 7 is played, an opponent with the ♣K can beat it ... and score a bonus point": one ♣K,
    # so one hawk a deal at most, for either team.
    expected = {(a + x, b + y) for a, b in independent_danish_pairs() for x, y in ((0, 0), (1, 0), (0, 1))}
    assert derive_ringkobing_pairs() == RINGKOBING_BONUS_PAIRS == rule_set(RINGKOBING).bonus_pairs == expected
    assert {(2, 3), (3, 2)} <= expected and (5, 1) not in expected


@pytest.mark.parametrize("code", [DANISH, RINGKOBING])
def test_everything_outside_the_legal_set_is_refused(code: str) -> None:
    rules = rule_set(code)
    for a, b in itertools.product(range(7), repeat=2):
        result = DealResult(TEAM_A, False, a, b)
        if (a, b) in rules.bonus_pairs:
            rules.check_result(result)
        else:
            with pytest.raises(ImpossibleResult):
                rules.check_result(result)


# --- the rule sets' own words in their messages --------------------------------------------------


@pytest.mark.parametrize(
    ("code", "result", "words"),
    [
        (DANISH, DealResult(TEAM_A, False, 3, 2), "matchsticks for chancing and smacking cannot both happen"),
        (DANISH, DealResult(TEAM_A, False, 5, 0), "at most 4 matchsticks for chancing and smacking"),
        (DANISH, DealResult(TEAM_A, False, -1, 0), "for chancing and smacking cannot be less than 0"),
        (RINGKOBING, DealResult(TEAM_B, False, 3, 3), "for chancing, smacking and hawking cannot both happen"),
        (RINGKOBING, DealResult(TEAM_B, False, 0, 6), "at most 5 matchsticks for chancing, smacking and hawking"),
    ],
)
def test_danish_refusals_speak_of_chancing_and_smacking(code: str, result: DealResult, words: str) -> None:
    with pytest.raises(ImpossibleResult) as caught:
        rule_set(code).check_result(result)
    assert words in str(caught.value)
    assert "daring" not in str(caught.value) and "striking" not in str(caught.value)


def test_danish_impossible_pair_says_what_is_possible() -> None:
    with pytest.raises(ImpossibleResult) as caught:
        rule_set(DANISH).check_result(DealResult(TEAM_A, False, 3, 2))
    assert str(caught.value) == (
        "Team A 3 and team B 2 matchsticks for chancing and smacking cannot both happen in one deal: "
        "if team A gets 3, team B gets at most 0."
    )


@pytest.mark.parametrize("code", [DANISH, RINGKOBING])
def test_the_other_teams_possible_bonuses_run_from_zero(code: str) -> None:
    # The refusal says "team B gets at most N": only true if every bonus from 0 to N is possible.
    pairs = rule_set(code).bonus_pairs
    for a, b in pairs:
        assert all((a, smaller) in pairs for smaller in range(b))
        assert all((smaller, b) in pairs for smaller in range(a))


@pytest.mark.parametrize("code", [DANISH, RINGKOBING])
def test_the_tablet_note_explains_why_2_to_2_is_possible(code: str) -> None:
    note = rule_set(code).wording.bonus_note
    assert "automatically smacked" in note and "2:2" in note
    assert "dare" not in note and "strike" not in note
