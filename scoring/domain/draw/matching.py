"""Minimum-cost perfect matching, for the partnerships and for the tables of a round: exact
(networkx's blossom algorithm) up to :data:`EXACT_MATCHING_MAX_NODES` nodes, a 2-opt local
search above (see :mod:`scoring.domain.draw.pairs`, "How").
"""

from __future__ import annotations

import random
from collections.abc import Callable

import networkx as nx

from scoring.domain.draw.input import Pair, sorted_pair

EXACT_MATCHING_MAX_NODES = 48
"""Largest matching (in nodes: players or partnerships) solved exactly with networkx.

Measured with networkx 3.6.1: a complete graph of 50 nodes takes about 0.03 s, 100 nodes
0.24 s, 200 nodes 1.3 s. Larger matchings use the local search described in the module text.
"""

# Random jitter added to exact matching weights; one unit of cost outweighs all jitter.
_JITTER = 1024
# Upper limit of improvement passes of the local search.
_LOCAL_SEARCH_MAX_PASSES = 100
# Cost of a forbidden pair in the local search (an exact matching leaves the edge out).
_FORBIDDEN = 1 << 60


def min_cost_matching(size: int, cost: Callable[[int, int], int | None], rng: random.Random) -> list[Pair] | None:
    """A perfect matching of the nodes ``0..size-1`` (``size`` even) with small total cost.

    ``cost(i, j)`` (for ``i < j``) is a non-negative int, or ``None`` for a pair that must not
    be matched. Exact (networkx blossom) up to :data:`EXACT_MATCHING_MAX_NODES` nodes, 2-opt
    local search above; if the local search is left with a forbidden pair (only with many
    forbidden pairs), the exact algorithm decides. Ties between equally cheap matchings are
    broken by ``rng``. Returns sorted pairs ``(i, j)`` with ``i < j``, or ``None`` when the
    forbidden pairs leave no perfect matching.
    """
    if size <= EXACT_MATCHING_MAX_NODES:
        return _exact_matching(size, cost, rng)
    pairs = _local_search_matching(size, cost, rng)
    if pairs is None:
        return _exact_matching(size, cost, rng)
    return pairs


def _exact_matching(size: int, cost: Callable[[int, int], int | None], rng: random.Random) -> list[Pair] | None:
    costs = {(i, j): cost(i, j) for i in range(size) for j in range(i + 1, size)}
    top = max((c for c in costs.values() if c is not None), default=0)
    # One unit of cost is worth more than the jitter of a whole matching.
    scale = _JITTER * (size // 2 + 1)
    graph = nx.Graph()
    graph.add_nodes_from(range(size))
    for (i, j), c in costs.items():
        if c is not None:
            graph.add_edge(i, j, weight=(top - c) * scale + 1 + rng.randrange(_JITTER))
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    pairs = sorted(sorted_pair(i, j) for i, j in matching)
    if len(pairs) * 2 != size:
        return None  # only possible with forbidden pairs
    return pairs


def _local_search_matching(size: int, cost: Callable[[int, int], int | None], rng: random.Random) -> list[Pair] | None:
    def price(i: int, j: int) -> int:
        c = cost(i, j)
        return _FORBIDDEN if c is None else c

    order = list(range(size))
    rng.shuffle(order)
    pairs = [sorted_pair(order[k], order[k + 1]) for k in range(0, size, 2)]
    costs = [price(a, b) for a, b in pairs]
    count = len(pairs)
    for _ in range(_LOCAL_SEARCH_MAX_PASSES):
        improved = False
        for i in range(count):
            if costs[i] == 0:
                continue
            start = rng.randrange(count)
            for offset in range(count):
                j = (start + offset) % count
                if j == i:
                    continue
                (a, b), (c, d) = pairs[i], pairs[j]
                before = costs[i] + costs[j]
                first = (sorted_pair(a, c), sorted_pair(b, d))
                second = (sorted_pair(a, d), sorted_pair(b, c))
                first_costs = (price(*first[0]), price(*first[1]))
                second_costs = (price(*second[0]), price(*second[1]))
                if sum(second_costs) < sum(first_costs):
                    first, first_costs = second, second_costs
                if sum(first_costs) < before:
                    pairs[i], pairs[j] = first
                    costs[i], costs[j] = first_costs
                    improved = True
                    if costs[i] == 0:
                        break
        if not improved:
            break
    if max(costs, default=0) >= _FORBIDDEN:
        return None
    return sorted(pairs)
