"""The search of the evening plan (:func:`scoring.domain.draw.plan_evening`): the plan as mutable
arrays with its cost kept up to date, its moves, and the simulated annealing over them.

The cost weighs the priorities of :mod:`scoring.domain.draw.evening` (one unit of each outweighs
everything below it). Three moves: exchange two players between two partnerships of one session
(across sit-out groups only as the rotation allows), exchange the opponents of two tables of one
round, and exchange the rounds in which two partnerships sit out. Every move's cost change is
computed from the tables it touches before it is made; only an accepted move changes the plan.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence

from scoring.domain.draw.input import PlayerId, same_club
from scoring.domain.draw.result import RoundDraw, SessionDraw, TableDraw

__all__ = ["UNIT", "PlanSearch"]

# Weights of the priorities (see the module documentation): one unit outweighs all below.
_W_PARTNER = 1 << 40
_W_MEET = 1 << 30
_W_CLUB_PARTNER = 1 << 20
UNIT = 4  # one repeated opponent; a same-club opponent at a table costs 1
# Temperatures of the annealing, in repeated opponents (start and end).
_T_START = 0.5
_T_END = 0.05
# Meetings per pair of players over the evening from which the annealing runs hotter, and at
# which it runs three times as hot (see PlanSearch.heat).
_CROWDED = (0.7, 0.8)
# How often (in iterations) the clock is read.
_CLOCK_EVERY = 128
# Share of the moves aimed at a table with a repeated opponent.
_FOCUS = 0.4
# The moves' shares: exchange the rounds of two sit-out teams, exchange two players (up to
# _P_EXCHANGE), else exchange the opponents of two tables.
_P_BYES = 0.1
_P_EXCHANGE = 0.55
# Share of the exchanges that may cross sit-out groups (players tied in the rotation).
_P_ACROSS = 0.3


class PlanSearch:
    """The plan as mutable arrays in player and team indices, with its cost kept up to date.

    Per planned session ``s``: ``mem[s][t]`` the players of team ``t`` (indices into
    ``present``), ``opp[s][r][t]`` the team ``t`` meets in round ``r`` (-1: it sits out),
    ``groups[s]`` the teams that sit out equally often (players are exchanged freely within a
    group, across groups only as :meth:`_swap_keeps_rotation` allows), ``meet[s]`` how often
    two teams meet (``t * T + u``), ``sitters[s]`` the players sitting out the session. ``met``
    and ``partners`` count over the whole evening (key ``a * n + b``, ``a < b``).
    """

    def __init__(
        self,
        present: Sequence[PlayerId],
        met: Mapping[tuple[int, int], int],
        partnered: set[tuple[int, int]],
        barred: set[tuple[int, int]],
        club: Sequence[str] | None,
        draws: Sequence[SessionDraw],
        sitouts: Sequence[int] | None = None,
    ) -> None:
        n = len(present)
        self.n = n
        self.present = list(present)
        index = {p: i for i, p in enumerate(present)}
        self.met = [0] * (n * n)
        for (a, b), c in met.items():
            self.met[a * n + b] = c
        self.met_history = list(self.met)
        # keys[a][b]: the key of the pair a, b in ``met``, ``partners`` and ``club_pair``.
        self.keys = [[a * n + b if a < b else b * n + a for b in range(n)] for a in range(n)]
        self.partners = [0] * (n * n)
        for a, b in partnered:
            self.partners[a * n + b] += 1
        # barred[a][b]: players a and b may not be partners (earlier partners, forbidden pairs).
        self.barred = [[False] * n for _ in range(n)]
        for a, b in barred:
            self.barred[a][b] = self.barred[b][a] = True
        self.club_pair = [0] * (n * n)
        if club is not None:
            for a in range(n):
                for b in range(a + 1, n):
                    self.club_pair[a * n + b] = same_club(club, a, b)
        self._load(draws, index)
        self._load_sitouts(sitouts)
        self.cost = self._full_cost()
        self.start_cost = self.best_cost = self.cost
        # What the plan cannot lower: repeats from the history alone (the search may stop there).
        self.history_cost = sum(UNIT * (c - 1) for c in self.met_history if c > 1)
        self.club_floor = 0
        self.best = self._snapshot()
        self.unsaved = False

    def _load(self, draws: Sequence[SessionDraw], index: Mapping[PlayerId, int]) -> None:
        """The sessions as arrays (see the class documentation)."""
        self.mem: list[list[list[int]]] = []
        self.opp: list[list[list[int]]] = []
        self.groups: list[list[list[int]]] = []
        self.meet: list[list[int]] = []
        self.sitters: list[tuple[int, ...]] = []
        self.team_count: list[int] = []
        for draw in draws:
            teams = [[index[p] for p in team] for team in draw.partnerships]
            count = len(teams)
            opp = []
            sat_out = [0] * count
            for round_draw in draw.rounds:
                row = [-1] * count
                for table in round_draw.tables:
                    row[table.team_a], row[table.team_b] = table.team_b, table.team_a
                if round_draw.sitout_partnership is not None:
                    sat_out[round_draw.sitout_partnership] += 1
                opp.append(row)
            by_count: dict[int, list[int]] = {}
            for t in range(count):
                by_count.setdefault(sat_out[t], []).append(t)
            self.mem.append(teams)
            self.opp.append(opp)
            self.groups.append([g for _, g in sorted(by_count.items()) if len(g) > 1])
            self.meet.append([0] * (count * count))
            self.team_count.append(count)
            self.sitters.append(tuple(index[p] for p in draw.sitout_players))

    def _load_sitouts(self, sitouts: Sequence[int] | None) -> None:
        """Per session the rounds each player sat out before it (``before``) and sits out in it
        (``sat``); ``None`` without ``sitouts`` (then players change teams only within a group)."""
        self.team_sat = [[0] * count for count in self.team_count]
        for s, opp in enumerate(self.opp):
            for row in opp:
                for t, u in enumerate(row):
                    if u < 0:
                        self.team_sat[s][t] += 1
        if sitouts is None:
            self.before: list[list[int]] | None = None
            return
        self.before, self.sat = [], []
        now = list(sitouts)
        for s, teams in enumerate(self.mem):
            sat = [0] * self.n
            for p in self.sitters[s]:
                sat[p] = len(self.opp[s])
            for t, team in enumerate(teams):
                for p in team:
                    sat[p] = self.team_sat[s][t]
            self.before.append(list(now))
            self.sat.append(sat)
            now = [a + b for a, b in zip(now, sat, strict=True)]

    def _swap_keeps_rotation(self, s: int, a: int, b: int, d: int) -> bool:
        """Whether players ``a`` and ``b`` may exchange their sit-outs of session ``s`` (``a``
        sits out ``d`` rounds fewer, ``b`` ``d`` more): they sat out equally often before it, and
        the rotation still holds for both in every later session."""
        before, sat = self.before, self.sat
        assert before is not None
        if before[s][a] != before[s][b]:
            return False
        for s2 in range(s + 1, len(self.mem)):
            row_before, row_sat = before[s2], sat[s2]
            moved = {a: row_before[a] - d, b: row_before[b] + d}
            for p, was in moved.items():
                now = row_sat[p]
                for y in range(self.n):
                    other = moved.get(y, row_before[y])
                    if y != p and ((was < other and now < row_sat[y]) or (other < was and row_sat[y] < now)):
                        return False
        return True

    def _move_sitouts(self, s: int, a: int, b: int, d: int) -> None:
        assert self.before is not None
        self.sat[s][a] -= d
        self.sat[s][b] += d
        for s2 in range(s + 1, len(self.mem)):
            self.before[s2][a] -= d
            self.before[s2][b] += d

    def _full_cost(self) -> int:
        """The plan's cost counted from scratch (fills ``met``, ``partners`` and ``meet``)."""
        cost = 0
        for s, teams in enumerate(self.mem):
            for team in teams:
                for k, a in enumerate(team):
                    for b in team[k + 1 :]:
                        cost += self._partner(a, b, 1)
            for row in self.opp[s]:
                for t, u in enumerate(row):
                    if t < u:
                        cost += self._table(s, t, u, 1)
        return cost

    # --- the incremental cost --------------------------------------------------------------

    def _partner(self, a: int, b: int, step: int) -> int:
        """Add ``step`` (+1 or -1) partnerships of players ``a`` and ``b``; the cost's change."""
        key = a * self.n + b if a < b else b * self.n + a
        c = self.partners[key]
        self.partners[key] = c + step
        repeat = c >= 1 if step > 0 else c >= 2
        return step * (_W_PARTNER * repeat + _W_CLUB_PARTNER * self.club_pair[key])

    def _table(self, s: int, t: int, u: int, step: int) -> int:
        """Add (+1) or remove (-1) the table of teams ``t`` and ``u`` of session ``s``."""
        n, met, club_pair = self.n, self.met, self.club_pair
        count = self.team_count[s]
        key = t * count + u if t < u else u * count + t
        c = self.meet[s][key]
        self.meet[s][key] = c + step
        delta = _W_MEET * (c >= 1 if step > 0 else c >= 2)
        for a in self.mem[s][t]:
            for b in self.mem[s][u]:
                k = a * n + b if a < b else b * n + a
                c = met[k]
                met[k] = c + step
                delta += UNIT * (c >= 1 if step > 0 else c >= 2) + club_pair[k]
        return step * delta

    # --- the moves ---------------------------------------------------------------------------

    def _table_ops(self, s: int, t: int, u: int, step: int, ops: list[tuple[int, int]]) -> None:
        """Append the opponent changes of adding (+1) or removing (-1) a table of teams t, u."""
        n = self.n
        for a in self.mem[s][t]:
            for b in self.mem[s][u]:
                ops.append((a * n + b if a < b else b * n + a, step))

    def _apply(self, ops: Sequence[tuple[int, int]]) -> int:
        """Apply opponent changes (key, +1 or -1) in order; the cost's change."""
        met, club_pair = self.met, self.club_pair
        delta = 0
        for k, step in ops:
            c = met[k]
            if step > 0:
                met[k] = c + 1
                delta += (UNIT if c >= 1 else 0) + club_pair[k]
            else:
                met[k] = c - 1
                delta -= (UNIT if c >= 2 else 0) + club_pair[k]
        return delta

    def _meeting(self, s: int, t: int, u: int, step: int) -> int:
        """Add (+1) or remove (-1) a meeting of teams t and u in session s; the cost's change."""
        count = self.team_count[s]
        key = t * count + u if t < u else u * count + t
        c = self.meet[s][key]
        self.meet[s][key] = c + step
        return _W_MEET * step * (c >= 1 if step > 0 else c >= 2)

    def _exchange_changes(self, s: int, t: int, i: int, u: int, j: int) -> dict[int, int]:
        """The opponent changes (pair key: net change of its meetings) of exchanging player ``i``
        of team ``t`` with player ``j`` of team ``u`` in session ``s``; nothing is changed."""
        mem = self.mem[s]
        team_t, team_u = mem[t], mem[u]
        a, b = team_t[i], team_u[j]
        key_a, key_b = self.keys[a], self.keys[b]
        change: dict[int, int] = {}
        get = change.get
        for row in self.opp[s]:
            x = row[t]
            if x == u:
                for q in team_u:
                    if q != b:
                        k = key_a[q]
                        change[k] = get(k, 0) - 1
                        k = key_b[q]
                        change[k] = get(k, 0) + 1
                for p in team_t:
                    if p != a:
                        k = key_b[p]
                        change[k] = get(k, 0) - 1
                        k = key_a[p]
                        change[k] = get(k, 0) + 1
                continue
            if x >= 0:
                for m in mem[x]:
                    k = key_a[m]
                    change[k] = get(k, 0) - 1
                    k = key_b[m]
                    change[k] = get(k, 0) + 1
            y = row[u]
            if y >= 0:
                for m in mem[y]:
                    k = key_b[m]
                    change[k] = get(k, 0) - 1
                    k = key_a[m]
                    change[k] = get(k, 0) + 1
        return change

    def _changes_delta(self, change: Mapping[int, int]) -> int:
        """The cost's change of opponent changes (pair key: net change), without making them."""
        met, club_pair = self.met, self.club_pair
        delta = 0
        for k, d in change.items():
            if d == 1:
                delta += (UNIT if met[k] >= 1 else 0) + club_pair[k]
            elif d == -1:
                delta -= (UNIT if met[k] >= 2 else 0) + club_pair[k]
            elif d:
                c = met[k]
                after = c + d - 1 if c + d > 1 else 0
                delta += UNIT * (after - (c - 1 if c > 1 else 0)) + club_pair[k] * d
        return delta

    def _partners_delta(self, s: int, t: int, i: int, u: int, j: int) -> int:
        """The cost's change in partnerships of the exchange of :meth:`_exchange_changes`."""
        mem, partners, club_pair, n = self.mem[s], self.partners, self.club_pair, self.n
        a, b = mem[t][i], mem[u][j]
        delta = 0
        for gone, came, team in ((a, b, mem[t]), (b, a, mem[u])):
            for p in team:
                if p != gone:
                    k = gone * n + p if gone < p else p * n + gone
                    delta -= _W_PARTNER * (partners[k] >= 2) + _W_CLUB_PARTNER * club_pair[k]
                    k = came * n + p if came < p else p * n + came
                    delta += _W_PARTNER * (partners[k] >= 1) + _W_CLUB_PARTNER * club_pair[k]
        return delta

    def _exchange_players(self, s: int, t: int, i: int, u: int, j: int, change: Mapping[int, int]) -> None:
        """Make the exchange of :meth:`_exchange_changes` (``change`` is its result)."""
        met = self.met
        for k, d in change.items():
            met[k] += d
        mem = self.mem[s]
        a, b = mem[t][i], mem[u][j]
        for p in mem[t]:
            if p != a:
                self._partner(a, p, -1)
                self._partner(b, p, 1)
        for q in mem[u]:
            if q != b:
                self._partner(b, q, -1)
                self._partner(a, q, 1)
        mem[t][i], mem[u][j] = b, a

    def _rewire(self, s: int, r: int, x: int, y: int) -> int:
        """In round ``r`` of session ``s`` seat team ``x`` against ``y``, and their former
        opponents against each other (both ``x`` and ``y`` play, not against each other)."""
        row = self.opp[s][r]
        x2, y2 = row[x], row[y]
        ops: list[tuple[int, int]] = []
        self._table_ops(s, x, x2, -1, ops)
        self._table_ops(s, y, y2, -1, ops)
        self._table_ops(s, x, y, 1, ops)
        self._table_ops(s, x2, y2, 1, ops)
        delta = self._meeting(s, x, x2, -1) + self._meeting(s, y, y2, -1)
        delta += self._meeting(s, x, y, 1) + self._meeting(s, x2, y2, 1)
        row[x], row[y], row[x2], row[y2] = y, x, y2, x2
        return delta + self._apply(ops)

    def _rewire_delta(self, s: int, r: int, x: int, y: int) -> int:
        """The cost's change of :meth:`_rewire` without making it (its 16 pairs are distinct)."""
        row = self.opp[s][r]
        x2, y2 = row[x], row[y]
        mem, met, club_pair, keys = self.mem[s], self.met, self.club_pair, self.keys
        meet, count = self.meet[s], self.team_count[s]
        delta = 0
        for t, u in ((x, x2), (y, y2)):
            if meet[t * count + u if t < u else u * count + t] >= 2:
                delta -= _W_MEET
            team_u = mem[u]
            for a in mem[t]:
                key_a = keys[a]
                for b in team_u:
                    k = key_a[b]
                    delta -= (UNIT if met[k] >= 2 else 0) + club_pair[k]
        for t, u in ((x, y), (x2, y2)):
            if meet[t * count + u if t < u else u * count + t] >= 1:
                delta += _W_MEET
            team_u = mem[u]
            for a in mem[t]:
                key_a = keys[a]
                for b in team_u:
                    k = key_a[b]
                    delta += (UNIT if met[k] >= 1 else 0) + club_pair[k]
        return delta

    def _swap_byes(self, s: int, r1: int, r2: int, x: int, y: int) -> int:
        """Team ``x`` sits out round ``r1`` and ``y`` round ``r2``: exchange their rounds (each
        takes the other's seat). ``_swap_byes(s, r1, r2, y, x)`` undoes it."""
        opp = self.opp[s]
        z1, z2 = opp[r1][y], opp[r2][x]
        ops: list[tuple[int, int]] = []
        self._table_ops(s, y, z1, -1, ops)
        self._table_ops(s, x, z2, -1, ops)
        self._table_ops(s, x, z1, 1, ops)
        self._table_ops(s, y, z2, 1, ops)
        delta = self._meeting(s, y, z1, -1) + self._meeting(s, x, z2, -1)
        delta += self._meeting(s, x, z1, 1) + self._meeting(s, y, z2, 1)
        opp[r1][x], opp[r1][y], opp[r1][z1] = z1, -1, x
        opp[r2][y], opp[r2][x], opp[r2][z2] = z2, -1, y
        return delta + self._apply(ops)

    # --- the annealing ---------------------------------------------------------------------

    def _conflict(self, rng: random.Random) -> tuple[int, int, int, int] | None:
        """A table with a repeated opponent, found by a few random looks: (s, r, team, team)."""
        met, keys, opps, mems = self.met, self.keys, self.opp, self.mem
        sessions = len(opps)
        random_ = rng.random
        for _ in range(8):
            s = int(random_() * sessions)
            opp = opps[s]
            r = int(random_() * len(opp))
            row = opp[r]
            t = int(random_() * len(row))
            u = row[t]
            if u < 0:
                continue
            mem = mems[s]
            team_u = mem[u]
            for a in mem[t]:
                key_a = keys[a]
                for b in team_u:
                    if met[key_a[b]] >= 2:
                        return s, r, t, u
        return None

    def anneal(
        self,
        rng: random.Random,
        iterations: int,
        deadline: float,
        clock: Callable[[], float],
        target: int | None = None,
    ) -> int:
        """Simulated annealing; returns the number of moves tried. Keeps the best plan; stops
        early when its cost reaches ``target`` (or no repeated opponent is left)."""
        floor = self.history_cost if target is None else max(target, self.history_cost)
        sessions = len(self.mem)
        if not self._movable():
            return 0
        self.random = random_ = rng.random
        ratio = _T_END / _T_START
        hottest = UNIT * _T_START * self.heat()
        temperature = hottest
        done = 0
        for done in range(1, iterations + 1):
            if done % _CLOCK_EVERY == 0:
                if clock() >= deadline or self.best_cost <= floor:
                    break
                temperature = hottest * ratio ** (done / iterations)
            found = self._conflict(rng) if random_() < _FOCUS else None
            if found is None:
                s = int(random_() * sessions)
                r = int(random_() * len(self.opp[s]))
                t = int(random_() * len(self.mem[s]))
                u = self.opp[s][r][t]
            else:
                s, r, t, u = found
            kind = random_()
            if kind < _P_BYES:
                if self.byes[s]:
                    self._try_byes(s, r, temperature)
            elif kind < _P_EXCHANGE:
                self._try_exchange(s, t, temperature)
            elif u >= 0:
                self._try_rewire(s, r, t, u, temperature)
        if self.unsaved:
            self.best = self._snapshot()
            self.unsaved = False
        return done

    def _movable(self) -> bool:
        """Prepare the moves (``group_of``: each team's sit-out group; ``byes``: sessions whose
        sit-outs may change rounds); whether any move is possible at all."""
        self.group_of = []
        for s in range(len(self.mem)):
            lookup: list[list[int] | None] = [None] * len(self.mem[s])
            for group in self.groups[s]:
                for t in group:
                    lookup[t] = group
            self.group_of.append(lookup)
        self.byes = [any(-1 in row for row in opp) and len(opp) > 1 for opp in self.opp]
        return any(self.groups) or any(len(m) >= 4 for m in self.mem) or any(self.byes)

    def heat(self) -> float:
        """How much hotter than ``_T_START``/``_T_END`` the annealing runs (1 to 3): the share of
        the pairs of players that meet in the evening (history and plan: meetings per pair), from
        ``_CROWDED[0]`` (1, e.g. 40 players) to ``_CROWDED[1]`` (3, e.g. 22 and 26 players).
        Measured: a crowded field wants the hotter search, a sparse one the colder."""
        pairs = self.n * (self.n - 1) // 2
        crowding = sum(self.met) / pairs if pairs else 0.0
        low, high = _CROWDED
        return 1.0 + 2.0 * min(1.0, max(0.0, (crowding - low) / (high - low)))

    def _accepts(self, delta: int, temperature: float) -> bool:
        return delta <= 0 or self.random() < math.exp(-delta / temperature)

    def _try_byes(self, s: int, r: int, temperature: float) -> None:
        opp = self.opp[s]
        r2 = int(self.random() * len(opp))
        if r2 == r:
            return
        x = opp[r].index(-1)
        y = opp[r2].index(-1)
        if x == y or opp[r][y] < 0 or opp[r2][x] < 0:
            return
        delta = self._swap_byes(s, r, r2, x, y)
        if self._accepts(delta, temperature):
            if self.unsaved and delta > 0:  # save the best plan before leaving it
                self._swap_byes(s, r, r2, y, x)
                self._accept(delta)
                self._swap_byes(s, r, r2, x, y)
            else:
                self._accept(delta)
        else:
            self._swap_byes(s, r, r2, y, x)

    def _try_exchange(self, s: int, t: int, temperature: float) -> None:
        random_ = self.random
        mem = self.mem[s]
        if self.before is not None and random_() < _P_ACROSS:
            v = int(random_() * len(mem))  # any team: across groups if the rotation allows
        else:
            group = self.group_of[s][t]
            if group is None:
                return
            v = group[int(random_() * len(group))]
        if v == t:
            return
        i = int(random_() * len(mem[t]))
        j = int(random_() * len(mem[v]))
        a, b = mem[t][i], mem[v][j]
        d = self.team_sat[s][t] - self.team_sat[s][v]
        if d and not self._swap_keeps_rotation(s, a, b, d):
            return
        barred_a, barred_b = self.barred[a], self.barred[b]
        for p in mem[t]:
            if p != a and barred_b[p]:
                return
        for q in mem[v]:
            if q != b and barred_a[q]:
                return
        change = self._exchange_changes(s, t, i, v, j)
        delta = self._changes_delta(change) + self._partners_delta(s, t, i, v, j)
        if self._accepts(delta, temperature):
            self._accept(delta)
            self._exchange_players(s, t, i, v, j, change)
            if d:
                self._move_sitouts(s, a, b, d)

    def _try_rewire(self, s: int, r: int, t: int, u: int, temperature: float) -> None:
        row = self.opp[s][r]
        x = t if self.random() < 0.5 else u
        x2 = row[x]
        y = int(self.random() * len(row))
        if y in (x, x2) or row[y] < 0:
            return
        delta = self._rewire_delta(s, r, x, y)
        if self._accepts(delta, temperature):
            self._accept(delta)
            self._rewire(s, r, x, y)

    def _accept(self, delta: int) -> None:
        """Account for an accepted move of cost change ``delta``, called before the move is made:
        the best plan is copied only when the search leaves it for a dearer one (``unsaved``: the
        plan now is the cheapest seen and not yet copied)."""
        if self.unsaved and delta > 0:
            self.best = self._snapshot()
            self.unsaved = False
        self.cost += delta
        if self.cost < self.best_cost:
            self.best_cost = self.cost
            self.unsaved = True

    def _snapshot(self) -> tuple[list[list[list[int]]], list[list[list[int]]]]:
        return [[list(team) for team in teams] for teams in self.mem], [[list(row) for row in opp] for opp in self.opp]

    def best_draws(self) -> list[SessionDraw]:
        """The best plan as :class:`SessionDraw` values (player ids, teams sorted)."""
        present = self.present
        mems, opps = self.best
        draws = []
        for s, (teams, opp) in enumerate(zip(mems, opps, strict=True)):
            ids = [tuple(sorted(present[p] for p in team)) for team in teams]
            order = sorted(range(len(ids)), key=lambda t: ids[t])
            number = {t: k for k, t in enumerate(order)}
            round_draws = []
            for r, row in enumerate(opp):
                pairs = sorted((number[t], number[u]) for t, u in enumerate(row) if u >= 0 and number[t] < number[u])
                sitting = [number[t] for t, u in enumerate(row) if u < 0]
                round_draws.append(
                    RoundDraw(
                        number=r + 1,
                        tables=tuple(TableDraw(number=k, team_a=a, team_b=b) for k, (a, b) in enumerate(pairs, 1)),
                        sitout_partnership=sitting[0] if sitting else None,
                    )
                )
            draws.append(
                SessionDraw(
                    partnerships=tuple(ids[t] for t in order),
                    sitout_players=tuple(sorted(present[p] for p in self.sitters[s])),
                    rounds=tuple(round_draws),
                )
            )
        return draws
