"""The results site's tables (docs/results-online.md): associations, clubs and their keys, the
evenings and seasons the clubs' halls publish, and the rows the player and season pages read.

A hub holds only what halls sent: an evening is its last snapshot (``HubEvening.snapshot``, the
checked value of :func:`scoring.hub.snapshot.check`), with its name, date and state copied out for
the lists, and one :class:`HubResult` per published player ranked in it, so that a player's page
and an association's season ranking are one query whatever the number of evenings and players.
"""

from __future__ import annotations

from django.db import models


class Association(models.Model):
    """A group of clubs with a season ranking across them (``bruus-turnier hub association add``)."""

    name = models.CharField(max_length=120, unique=True)
    slug = models.SlugField(max_length=60, unique=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Club(models.Model):
    """A tenant of the hub: its upload key (stored hashed: ``key_prefix`` finds it, ``key_hash``
    checks it, :mod:`scoring.hub.keys`), its imprint/contact text, its association."""

    name = models.CharField(max_length=120, unique=True)
    slug = models.SlugField(max_length=60, unique=True)
    key_prefix = models.CharField(max_length=16, unique=True)
    key_hash = models.CharField(max_length=200)
    imprint = models.TextField(blank=True, max_length=4000)
    association = models.ForeignKey(Association, null=True, blank=True, on_delete=models.SET_NULL, related_name="clubs")

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class HubEvening(models.Model):
    """One evening of a club as its hall last published it. ``version`` is the hall's
    ``Evening.version`` (only ever grows); ``edits`` counts changes made on the hub itself (a
    withdrawal), so that the page's ETag (version and edits) changes with either. A withdrawn
    evening keeps its row (no page, no data) so that an older snapshot replayed stays unchanged."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="evenings")
    uid = models.CharField(max_length=100)
    version = models.BigIntegerField()
    edits = models.PositiveIntegerField(default=0)
    snapshot = models.JSONField(default=dict)
    name = models.CharField(max_length=120)
    date = models.DateField()
    state = models.CharField(max_length=5)
    ranking_hidden = models.BooleanField(default=False)
    withdrawn = models.BooleanField(default=False)
    received_at = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["club", "uid"], name="hub_evening_unique_per_club")]
        indexes = [models.Index(fields=["club", "-date"], name="hub_evening_club_date")]

    def __str__(self) -> str:
        return f"{self.club_id}/{self.uid}"


class HubPlayer(models.Model):
    """A published player of a club (the hall's opaque key), with the name last published;
    ``initials``: the name is initials (``"H. J."``), matched within the club only."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="players")
    key = models.CharField(max_length=64)
    name = models.CharField(max_length=120)
    initials = models.BooleanField(default=False)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["club", "key"], name="hub_player_unique_per_club")]

    def __str__(self) -> str:
        return self.name


class HubResult(models.Model):
    """A published player's line in an evening's ranking as last shown (kept while the ranking is
    hidden). Players not published have no row."""

    evening = models.ForeignKey(HubEvening, on_delete=models.CASCADE, related_name="results")
    player = models.ForeignKey(HubPlayer, on_delete=models.CASCADE, related_name="results")
    place = models.PositiveIntegerField()
    total = models.DecimalField(max_digits=9, decimal_places=1)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["evening", "player"], name="hub_result_unique")]


class HubSeason(models.Model):
    """A season: a club's (from its hall's season snapshots: ``uid``, ``version``, ``snapshot``)
    or an association's (a name and a date range; its ranking is computed across the clubs)."""

    club = models.ForeignKey(Club, null=True, blank=True, on_delete=models.CASCADE, related_name="seasons")
    association = models.ForeignKey(
        Association, null=True, blank=True, on_delete=models.CASCADE, related_name="seasons"
    )
    uid = models.CharField(max_length=100, blank=True)
    version = models.BigIntegerField(default=0)
    name = models.CharField(max_length=120)
    snapshot = models.JSONField(default=dict)
    starts = models.DateField(null=True, blank=True)
    ends = models.DateField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["club", "uid"], condition=models.Q(club__isnull=False), name="hub_season_unique_per_club"
            ),
            models.CheckConstraint(
                condition=models.Q(club__isnull=True) ^ models.Q(association__isnull=True), name="hub_season_owner"
            ),
        ]

    def __str__(self) -> str:
        return self.name
