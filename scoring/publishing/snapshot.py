"""The snapshots the hub receives (docs/results-online.md, "What travels"): a selector, reads only.

Built from the selectors of the public pages (:func:`scoring.selectors.ranking.ranked_evenings`
over :func:`scoring.selectors.history.evening_histories`, :func:`scoring.selectors.ranking.evening_deals`,
:func:`scoring.selectors.season.season_ranking`), so a snapshot shows what the public ranking shows.
Privacy is applied here, on the hall: a player whose online name is "not online" appears as
``None`` (JSON ``null``) in the ranking and at the tables and neither name nor key is in the body;
initials are made here (:mod:`scoring.publishing.privacy`).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from datetime import UTC
from fractions import Fraction
from typing import Any

from django.utils import timezone

from scoring.domain.evening import evening_is_over
from scoring.domain.ranking import one_decimal
from scoring.models import Evening, Player, Season
from scoring.publishing import privacy
from scoring.publishing.models import EveningPublishing, PublishingConfig, PublishMode
from scoring.selectors.history import evening_histories
from scoring.selectors.ranking import evening_deals, ranked_evenings
from scoring.selectors.season import season_ranking

FORMAT_VERSION = 1


def sticks(value: Fraction | int) -> str:
    """Matchsticks as the snapshot writes them: ``"54"``, ``"54.6"`` (one decimal rounded half up,
    a dot, never a comma)."""
    if value == int(value):
        return str(int(value))
    return str(one_decimal(value))


def _sent_at() -> str:
    return timezone.now().astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


class Names:
    """Player id -> what may go online (key and name) for one snapshot (1 query for the players)."""

    def __init__(self, config: PublishingConfig, player_ids: Iterable[int]):
        self.config = config
        self.online: dict[int, tuple[str, str]] = {}
        for player in Player.objects.filter(pk__in=set(player_ids)).select_related("publishing"):
            own = getattr(player, "publishing", None)
            choice = privacy.effective_choice(own.online_name if own else None, config.club_default)
            name = privacy.online_name(player.name, choice)
            if name is not None:
                self.online[player.pk] = (privacy.player_key(config.secret, player.pk), name)

    def key(self, player_id: int | None) -> str | None:
        """The player's key, or None when the player is not online (or no player)."""
        found = self.online.get(player_id) if player_id is not None else None
        return found[0] if found else None

    def players(self, used: Iterable[int]) -> list[dict[str, str]]:
        """The ``players`` list: the online players among ``used``, each once, in first use order."""
        seen: dict[int, None] = dict.fromkeys(pid for pid in used if pid in self.online)
        return [{"key": self.online[pid][0], "name": self.online[pid][1]} for pid in seen]


def _team(names: Names, team: tuple[int, ...]) -> list[str | None]:
    return [names.key(pid) for pid in team]


def evening_snapshot(evening_id: int, config: PublishingConfig) -> dict[str, Any] | None:
    """The snapshot (format ``bruus-snapshot`` 1) of one evening as a JSON-ready dict, or None when
    the evening no longer exists. 8 queries (9 when a drawn player was taken off the evening's
    list), whatever the number of players, rounds and deals.

    The evening's row (and with it ``version``) is read first: whatever is read after is at least
    as new, so a snapshot never claims a version newer than its contents.
    """
    evening = Evening.objects.filter(pk=evening_id).first()
    if evening is None:
        return None
    histories = evening_histories([evening])
    history = histories[evening.pk]
    over = evening_is_over(
        sessions_planned=evening.sessions_count,
        sessions_drawn=max(history.sessions.values(), default=0),
        tables_confirmed=[t.confirmed for r in history.rounds for t in r.tables],
    )
    results: tuple[Names, list[int], list[dict[str, Any]], list[dict[str, Any]]]
    results = (Names(config, ()), [], [], []) if evening.ranking_hidden else _results(evening, histories, config)
    names, used, ranking, rounds = results
    return {
        "format": "bruus-snapshot",
        "format_version": FORMAT_VERSION,
        "evening": _evening_header(evening, config, over),
        "players": names.players(used),
        "ranking": ranking,
        "rounds": rounds,
    }


def _evening_header(evening: Evening, config: PublishingConfig, over: bool) -> dict[str, Any]:
    """The snapshot's ``evening`` object: what the evening is, its version and state."""
    return {
        "uid": privacy.evening_uid(config.installation_id, evening.pk),
        "version": evening.version,
        "name": evening.name,
        "date": evening.date.isoformat(),
        "venue": evening.venue,
        "rule_set": evening.rule_set,
        "language": evening.language,
        "sessions_count": evening.sessions_count,
        "rounds_per_session": evening.rounds_per_session,
        "deals_per_round": evening.deals_per_round,
        "state": "final" if over else "live",
        "ranking_hidden": evening.ranking_hidden,
        "sent_at": _sent_at(),
    }


def _results(
    evening: Evening, histories: dict, config: PublishingConfig
) -> tuple[Names, list[int], list[dict[str, Any]], list[dict[str, Any]]]:
    """The names (privacy applied), the players named, the ranking and the confirmed rounds with
    their deals, as the public ranking shows them."""
    history = histories[evening.pk]
    rows = ranked_evenings([evening], histories).rankings[evening.pk]
    confirmed_rounds = [r for r in history.rounds if r.tables and all(t.confirmed for t in r.tables)]
    deals: dict[int, list[dict[str, int]]] = defaultdict(list)
    if confirmed_rounds:
        for deal in evening_deals(evening):
            deals[deal.seating_id].append({"number": deal.number, "points_a": deal.points_a, "points_b": deal.points_b})
    used = [row.player.pk for row in rows]
    used += [pid for r in confirmed_rounds for t in r.tables for pid in (*t.team_a, *t.team_b)]
    names = Names(config, used)
    ranking = [
        {
            "place": row.place,
            "player": names.key(row.player.pk),
            "total": sticks(row.total),
            "sessions": [sticks(value) for value in row.sessions],
        }
        for row in rows
    ]
    rounds = [
        {
            "session": r.session,
            "round": r.number,
            "tables": [
                {
                    "table": t.table,
                    "team_a": _team(names, t.team_a),
                    "team_b": _team(names, t.team_b),
                    "points_a": t.sum_a,
                    "points_b": t.sum_b,
                    "deals": deals.get(t.seating_id, []),
                }
                for t in r.tables
            ],
        }
        for r in confirmed_rounds
    ]
    return names, used, ranking, rounds


def season_snapshot(season_id: int, config: PublishingConfig) -> dict[str, Any] | None:
    """The snapshot (format ``bruus-season`` 1) of one season, or None when there is nothing to
    send: the season is gone, or one of its evenings would show more than the hub may see yet (its
    ranking hidden, or still being played while it goes online only at the end or not at all).
    ``evenings`` names the season's evenings the hub holds (sent, not withdrawn). 9 queries (10
    when a drawn player was taken off an evening's list), whatever the number of evenings and
    players.

    ``version``: the highest version of the season's evenings (every change of a season bumps the
    versions of its evenings: ``scoring.services.seasons``).
    """
    season = Season.objects.filter(pk=season_id).first()
    if season is None:
        return None
    ranking = season_ranking(season)
    if not ranking.evenings:
        return None
    ids = [column.evening.pk for column in ranking.evenings]
    rows = EveningPublishing.objects.filter(evening__in=ids).values_list("evening_id", "mode", "sent_version")
    modes = {pk: mode for pk, mode, _ in rows}
    online = {pk for pk, mode, sent in rows if sent is not None and mode != PublishMode.OFF}
    for column in ranking.evenings:
        mode = modes.get(column.evening.pk, PublishMode.END)
        if column.evening.ranking_hidden or (not column.confirmed and mode != PublishMode.LIVE):
            return None
    lines = ranking.ranked
    names = Names(config, [line.player.pk for line in lines])
    used = [line.player.pk for line in lines]
    return {
        "format": "bruus-season",
        "format_version": FORMAT_VERSION,
        "season": {
            "uid": privacy.season_uid(config.installation_id, season.pk),
            "version": max(column.evening.version for column in ranking.evenings),
            "name": season.name,
        },
        "evenings": [privacy.evening_uid(config.installation_id, pk) for pk in ids if pk in online],
        "players": names.players(used),
        "ranking": [
            {
                "place": line.place,
                "player": names.key(line.player.pk),
                "total": sticks(line.total),
                "evenings": len(line.cells),
            }
            for line in lines
        ],
    }


def withdrawal_snapshot(players: list[str], evenings: list[str]) -> dict[str, Any]:
    """The withdrawal (format ``bruus-withdraw`` 1): player keys and evening uids."""
    return {"format": "bruus-withdraw", "format_version": FORMAT_VERSION, "players": players, "evenings": evenings}
