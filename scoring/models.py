"""Database models of Bruus Turnier.

Vocabulary follows docs/rules.md ("The evening: the Schwesing format"): an *evening* has *sessions* (Durchgänge),
a session has *partnerships* and *rounds*, a round seats two partnerships at each *table* (a :class:`Seating`), and
each seating plays a number of *deals* (Spiele) scored in *matchsticks*. The results site's tables: scoring.hub.models.
"""

from __future__ import annotations

import secrets
from typing import Literal

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from scoring.domain import clock, rulesets
from scoring.domain.names import match_key
from scoring.domain.rules import TEAM_A, TEAM_B
from scoring.domain.rulesets import RULE_SETS, RuleSet, rule_set
from scoring.hall import table_links
from scoring.hall.origin import OriginRole, Source
from scoring.hall.table_codes import new_table_code
from scoring.hub.models import Association, Club, HubEvening, HubPlayer, HubResult, HubSeason  # noqa: F401
from scoring.publishing import models as publishing_models  # noqa: F401  (registers its models)
from scoring.validators import validate_no_bidi_controls, validate_tiebreak_chain

#: The rule sets an evening can be played by, derived from :data:`scoring.domain.rulesets.RULE_SETS`
#: (same codes, same order; member names are the codes in capitals, e.g. ``RuleSetChoice.SCHWESING``).
#: The names are the domain's msgids (marked there for the catalogue). A new rule set needs only
#: ``makemigrations`` here (the field's choices change), see docs/architecture.md, "Adding a rule set".
# django-stubs types the functional API with one member only; Django takes a list of (name, value).
RuleSetChoice = models.TextChoices(  # type: ignore[call-overload]
    "RuleSetChoice", [(code.upper(), (code, _(rules.name))) for code, rules in RULE_SETS.items()]
)


class TeamLetter(models.TextChoices):
    """The two partnerships at a table, as the score sheet and the tablet name them (the values
    are :data:`scoring.domain.rules.TEAMS`; the other one is :func:`~scoring.domain.rules.other_team`)."""

    A = TEAM_A, _("Team A")
    B = TEAM_B, _("Team B")


class DealWinner(models.TextChoices):
    """What a deal's ``winner`` can hold: a team, or in Treia a Bock (4:4, nobody won)."""

    A = TEAM_A, _("Team A")
    B = TEAM_B, _("Team B")
    BOCK = rulesets.BOCK, _("Bock")


def new_version_start() -> int:
    """Where a new evening's version starts: a random 40-bit number, so that an evening recreated
    with the same id (a fresh database, a restore) never meets the ETags and cached screens of
    the old one."""
    return secrets.randbits(40)


def new_table_token() -> str:
    """A fresh table link token (:func:`scoring.hall.table_links.new_token`; the field's default
    stays here, where the migrations name it)."""
    return table_links.new_token()


class Player(models.Model):
    """A person in the club's player register; lasts across evenings."""

    name = models.CharField(_("name"), max_length=100, validators=[validate_no_bidi_controls])
    club = models.CharField(_("club or village"), max_length=100, blank=True, validators=[validate_no_bidi_controls])
    match_key = models.CharField(max_length=210, unique=True, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        # No database ordering: lists sort in Python (scoring.selectors.by_name, DIN 5007-1).
        verbose_name = _("player")
        verbose_name_plural = _("players")

    def __str__(self) -> str:
        return f"{self.name} ({self.club})" if self.club else self.name

    def save(self, *args, **kwargs):
        self.match_key = match_key(self.name, self.club)
        super().save(*args, **kwargs)


class ProjectorMode(models.TextChoices):
    """What an evening's projector page shows (``Evening.projector_mode``, set on the live
    overview by :func:`scoring.services.projector.set_projector_mode`)."""

    RANKING = "ranking", _("Ranking")
    SEATING = "seating", _("Seating of the next round")
    CLOCK = "clock", _("Round clock")
    ROTATION = "rotation", _("Rotation of all three")


class Evening(models.Model):
    """A tournament evening (Turnierabend) in the Schwesing format."""

    name = models.CharField(_("name"), max_length=120, validators=[validate_no_bidi_controls])
    date = models.DateField(_("date"))
    venue = models.CharField(_("venue"), max_length=120, blank=True, validators=[validate_no_bidi_controls])
    sessions_count = models.PositiveSmallIntegerField(
        _("sessions"), default=3, validators=[MinValueValidator(1), MaxValueValidator(6)]
    )
    rounds_per_session = models.PositiveSmallIntegerField(
        _("rounds per session"), default=4, validators=[MinValueValidator(1), MaxValueValidator(8)]
    )
    deals_per_round = models.PositiveSmallIntegerField(
        _("deals per round"), default=4, validators=[MinValueValidator(1), MaxValueValidator(8)]
    )
    players = models.ManyToManyField(Player, through="Participant", related_name="evenings")
    ranking_hidden = models.BooleanField(
        _("ranking hidden on the public screen"),
        default=False,
        help_text=_("For the last rounds: the public ranking screen says it will be announced at the end."),
    )
    mix_clubs = models.BooleanField(
        _("mix clubs"),
        default=False,
        help_text=_("The draw prefers partners and opponents from different clubs."),
    )
    language = models.CharField(
        _("language of the evening"),
        max_length=8,
        choices=settings.LANGUAGES,
        default=settings.LANGUAGE_CODE,
        help_text=_(
            "Printouts, the public screens and the tablets use this language, whatever language a "
            "browser or the organiser's own pages are set to."
        ),
    )
    tiebreaks = models.CharField(
        _("tie-breaks"),
        max_length=60,
        blank=True,
        default="",
        validators=[validate_tiebreak_chain],
        help_text=_("Equal totals share a place unless a chain of tie-breaks is chosen."),
    )
    rule_set = models.CharField(
        _("rule set"),
        max_length=12,
        choices=RuleSetChoice.choices,
        default=rulesets.DEFAULT,
        help_text=_("How the deals are scored. It cannot be changed once a deal is entered."),
    )
    projector_mode = models.CharField(
        _("what the projector shows"),
        max_length=10,
        choices=ProjectorMode.choices,
        default=ProjectorMode.RANKING,
        help_text=_("Chosen on the live overview; the projector page (/abend/<id>/beamer/) follows it."),
    )
    # +1 in the transaction of every write that can change a page of the evening
    # (scoring.services.base.evening_changed); ETags and the shared cache of the screens use it.
    version = models.PositiveBigIntegerField(default=new_version_start, editable=False)
    # +1 with version, except for writes no seat page shows (deals, finishing a round at the
    # table): "Wo sitze ich?" and its polls depend on the seatings and the clock only.
    seating_version = models.PositiveBigIntegerField(default=new_version_start, editable=False)
    # The round clock (scoring.domain.clock, scoring.services.clock): lengths, and its state
    # stored as data, so every screen, a restart and a reload show the same time.
    round_minutes = models.PositiveSmallIntegerField(
        _("round length (minutes)"),
        default=clock.DEFAULT_ROUND_MINUTES,
        validators=[MinValueValidator(clock.MIN_MINUTES), MaxValueValidator(clock.MAX_MINUTES)],
    )
    break_minutes = models.PositiveSmallIntegerField(
        _("break length (minutes)"),
        default=clock.DEFAULT_BREAK_MINUTES,
        validators=[MinValueValidator(clock.MIN_MINUTES), MaxValueValidator(clock.MAX_MINUTES)],
    )
    clock_locks_round = models.BooleanField(_("lock the round when its time is up"), default=False)
    clock_kind = models.CharField(max_length=5, blank=True, editable=False)  # "", "round", "break"
    clock_status = models.CharField(max_length=7, blank=True, editable=False)  # "", running, paused, ended
    clock_session = models.PositiveSmallIntegerField(null=True, blank=True, editable=False)
    clock_round = models.PositiveSmallIntegerField(null=True, blank=True, editable=False)
    clock_ends_at = models.DateTimeField(null=True, blank=True, editable=False)  # while running
    clock_remaining = models.PositiveIntegerField(null=True, blank=True, editable=False)  # seconds, paused
    # +1 on every change of the organiser's; starts at random as version does (ETags of the clock)
    clock_version = models.PositiveBigIntegerField(default=new_version_start, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    # Archived (scoring.services.housekeeping): left out of the evening list and of the evenings a
    # season form offers; its results stay (player pages, a season that holds it). None: current.
    archived_at = models.DateTimeField(_("archived"), null=True, blank=True, editable=False)

    class Meta:
        ordering = ["-date", "-id"]
        verbose_name = _("evening")
        verbose_name_plural = _("evenings")
        # The organiser roles (scoring.hall.roles): Helfer have assist_evening, Turnierleitung all three.
        permissions = [
            ("assist_evening", _("Can check in players, enter and confirm deals on a team's behalf and print")),
            ("run_evening", _("Can draw and change sessions, lock, correct confirmed rounds and renew table links")),
            ("manage_logins", _("Can create, reset and deactivate organiser logins")),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def rules(self) -> RuleSet:
        """The evening's rule set (:mod:`scoring.domain.rulesets`)."""
        return rule_set(self.rule_set)

    @property
    def clock_state(self) -> clock.ClockState:
        """The round clock as stored (:class:`scoring.domain.clock.ClockState`; no query)."""
        return clock.ClockState(
            self.clock_kind,
            self.clock_status,
            self.clock_session,
            self.clock_round,
            self.clock_ends_at,
            self.clock_remaining,
        )


class Participant(models.Model):
    """A player's place on one evening: checked in (present) or not."""

    evening = models.ForeignKey(Evening, on_delete=models.CASCADE, related_name="participants")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="participations")
    checked_in = models.BooleanField(_("checked in"), default=True)
    is_stand_in = models.BooleanField(
        _("stand-in"),
        default=False,
        help_text=_("Plays to fill a table but is not ranked (Ersatzspieler)."),
    )

    class Meta:
        constraints = [models.UniqueConstraint(fields=["evening", "player"], name="one_participation_per_evening")]


class PartnerExclusion(models.Model):
    """The organiser's wish that two players are never drawn as partners this evening
    (e.g. a married couple). ``player_a`` has the smaller id."""

    evening = models.ForeignKey(Evening, on_delete=models.CASCADE, related_name="partner_exclusions")
    player_a = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    player_b = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["evening", "id"]
        constraints = [
            models.UniqueConstraint(fields=["evening", "player_a", "player_b"], name="one_exclusion_per_pair"),
            models.CheckConstraint(condition=Q(player_a__lt=models.F("player_b")), name="exclusion_pair_ordered"),
        ]


class Table(models.Model):
    """A physical table of an evening, with the private link of its tablet."""

    evening = models.ForeignKey(Evening, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField(_("table"))
    token = models.CharField(max_length=64, unique=True, default=new_table_token)
    # Typed at /tablet/ with the table number (scoring.hall.table_codes); renewed with the link.
    code = models.CharField(_("table code"), max_length=6, default=new_table_code)

    class Meta:
        ordering = ["number"]
        constraints = [models.UniqueConstraint(fields=["evening", "number"], name="unique_table_number")]

    def __str__(self) -> str:
        return f"{self.evening} / {self.number}"


class Session(models.Model):
    """A session (Durchgang): partnerships are fixed for its rounds."""

    evening = models.ForeignKey(Evening, on_delete=models.CASCADE, related_name="sessions")
    number = models.PositiveSmallIntegerField(_("session"))
    seed = models.BigIntegerField(_("random seed"))
    sitout_player = models.ForeignKey(Player, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    #: Teams of three (six-handed Bräus) leave up to two players out of the session.
    sitout_player_2 = models.ForeignKey(Player, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    drawn_at = models.DateTimeField(auto_now_add=True)
    drawn_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    closed = models.BooleanField(_("closed for the tables"), default=False)
    #: The evening plan made with this draw (:mod:`scoring.domain.draw.evening`):
    #: repeated opponents over the whole evening if it is played as planned, the same for the
    #: session-by-session draw the search started from, and the a-priori lower bound for the
    #: players present. Empty for sessions drawn before the planner.
    plan_repeats = models.PositiveIntegerField(_("planned repeated opponents"), null=True, blank=True)
    plan_baseline = models.PositiveIntegerField(
        _("repeated opponents of the session-by-session draw"), null=True, blank=True
    )
    plan_bound = models.PositiveIntegerField(_("lower bound of repeated opponents"), null=True, blank=True)
    #: The sessions after this one as planned (``scoring.domain.draw.plan_to_json``): the next
    #: draw resumes the plan if it still fits the players and what was played.
    plan = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["evening", "number"]
        constraints = [models.UniqueConstraint(fields=["evening", "number"], name="unique_session_number")]

    @property
    def sitout_player_ids(self) -> tuple[int, ...]:
        """The ids of the players who sit out the whole session: none, one, or two with teams of
        three."""
        return tuple(p for p in (self.sitout_player_id, self.sitout_player_2_id) if p is not None)


class Partnership(models.Model):
    """The players who play together for a whole session: two, or three in six-handed Bräus."""

    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="partnerships")
    number = models.PositiveSmallIntegerField()
    player_1 = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    player_2 = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    #: The third player of a team of three (six-handed Bräus); empty for teams of two.
    player_3 = models.ForeignKey(Player, null=True, blank=True, on_delete=models.PROTECT, related_name="+")

    class Meta:
        ordering = ["session", "number"]
        constraints = [models.UniqueConstraint(fields=["session", "number"], name="unique_partnership_number")]

    @property
    def players(self) -> tuple[Player, ...]:
        """The team's players in seat order: two, or three for a team of three."""
        player_3 = self.player_3  # None without a query when player_3_id is None
        if player_3 is None:
            return (self.player_1, self.player_2)
        return (self.player_1, self.player_2, player_3)

    @property
    def player_ids(self) -> tuple[int, ...]:
        """The ids of :attr:`players` (no query)."""
        return tuple(p for p in (self.player_1_id, self.player_2_id, self.player_3_id) if p is not None)


class Substitution(models.Model):
    """A player who left during a session and the player who took over their seat.

    From ``from_round`` on, the seatings (and round sit-outs) of ``partnership_before`` point to
    ``partnership_after`` (the remaining partner with the replacement). Deals already entered stay
    with ``partnership_before``: the leaver keeps the matchsticks of the rounds they played.
    """

    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="substitutions")
    from_round = models.PositiveSmallIntegerField(_("from round"))
    leaving = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    replacement = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    partnership_before = models.ForeignKey(Partnership, on_delete=models.CASCADE, related_name="+")
    partnership_after = models.ForeignKey(Partnership, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["session", "from_round", "id"]


class Round(models.Model):
    """A round (Runde): one seating of the session's partnerships at tables."""

    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField(_("round"))
    sitout_partnership = models.ForeignKey(
        Partnership, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    locked = models.BooleanField(_("locked for the tables"), default=False)

    class Meta:
        ordering = ["session", "number"]
        constraints = [models.UniqueConstraint(fields=["session", "number"], name="unique_round_number")]


class Seating(models.Model):
    """Two partnerships at one table in one round; the unit a scorer enters deals for.

    A round at a table goes: not started -> in progress (deals entered) -> *entered* (the scorer
    finished it: ``entered_at``, ``entered_by`` = the scorer's team) -> *confirmed* by the other
    team or by the organiser (``confirmed_at``): only then is it final and the table moves on.
    """

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="seatings")
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="seatings")
    team_a = models.ForeignKey(Partnership, on_delete=models.PROTECT, related_name="+")
    team_b = models.ForeignKey(Partnership, on_delete=models.PROTECT, related_name="+")
    entered_at = models.DateTimeField(_("finished by the scorer"), null=True, blank=True)
    entered_by = models.CharField(_("scorer's team"), max_length=1, choices=TeamLetter.choices, blank=True)
    confirmed_at = models.DateTimeField(_("confirmed"), null=True, blank=True)
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # Where the confirmation came from (scoring.hall.origin): source, table, team, role and name then.
    confirmed_source = models.CharField(max_length=10, choices=Source.choices, blank=True)
    confirmed_table_number = models.PositiveSmallIntegerField(null=True, blank=True)
    confirmed_team = models.CharField(max_length=1, choices=TeamLetter.choices, blank=True)
    confirmed_role = models.CharField(max_length=10, choices=OriginRole.choices, blank=True)
    confirmed_name = models.CharField(max_length=150, blank=True)

    class Meta:
        ordering = ["round", "table__number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "table"], name="one_seating_per_table_and_round"),
            models.CheckConstraint(condition=~Q(team_a=models.F("team_b")), name="two_different_teams"),
        ]


#: What the service that was sent a deal did with it, told on the Deal or DrawnDeal it returns
#: (``outcome``, not stored): :func:`scoring.services.deals.enter_deal` and ``record_draw``.
DealOutcome = Literal["created", "changed", "unchanged", "replayed"]


class Deal(models.Model):
    """The entered result of one deal (Spiel) at one seating, and its matchsticks."""

    outcome: DealOutcome  # not a field: set by the service that returns the deal

    seating = models.ForeignKey(Seating, on_delete=models.CASCADE, related_name="deals")
    number = models.PositiveSmallIntegerField(_("deal"))
    # "A" or "B"; in Treia also "bock" (4:4: nobody won, the matchstick is carried). A drawn
    # Bräus deal is not a Deal (it does not use up the deal): see DrawnDeal.
    winner = models.CharField(_("five tricks"), max_length=4, choices=DealWinner.choices)
    to_nil = models.BooleanField(_("to nil"), default=False)
    bonus_a = models.PositiveSmallIntegerField(_("daring and striking, team A"), default=0)
    bonus_b = models.PositiveSmallIntegerField(_("daring and striking, team B"), default=0)
    points_a = models.PositiveSmallIntegerField(_("matchsticks team A"))
    points_b = models.PositiveSmallIntegerField(_("matchsticks team B"))
    override_reason = models.TextField(_("reason for accepting an impossible result"), blank=True)
    version = models.PositiveIntegerField(default=1)  # +1 on every change: stale forms are refused
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["seating", "number"]
        constraints = [
            models.UniqueConstraint(fields=["seating", "number"], name="one_result_per_deal"),
            models.CheckConstraint(condition=Q(number__gte=1), name="deal_number_positive"),
            models.CheckConstraint(condition=Q(winner__in=DealWinner.values), name="winner_is_a_team_or_bock"),
        ]


class DrawnDeal(models.Model):
    """A Bräus deal nobody could decide (no six tricks, no five and ♣K): recorded for the audit;
    it does not use up the deal, the table deals it again (our decision, docs/rules.md "Bräus: a drawn deal")."""

    outcome: DealOutcome  # not a field: set by the service that returns it

    seating = models.ForeignKey(Seating, on_delete=models.CASCADE, related_name="drawn_deals")
    number = models.PositiveSmallIntegerField(_("deal"))
    recorded_at = models.DateTimeField(auto_now_add=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # Where the change came from (scoring.hall.origin): source, table, team, the login's role and name then.
    source = models.CharField(max_length=10, choices=Source.choices)
    table_number = models.PositiveSmallIntegerField(null=True, blank=True)
    team = models.CharField(max_length=1, choices=TeamLetter.choices, blank=True)
    role = models.CharField(max_length=10, choices=OriginRole.choices, blank=True)
    name = models.CharField(max_length=150, blank=True)
    client = models.CharField(max_length=64, blank=True)
    submission = models.UUIDField(null=True, blank=True)  # idempotency key of the form sent

    class Meta:
        ordering = ["seating", "number", "recorded_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["seating", "submission"], name="one_draw_per_submission"),
        ]


class DealChange(models.Model):
    """One entry or correction of a deal: what it was before, what it became, who and where."""

    deal = models.ForeignKey(Deal, on_delete=models.CASCADE, related_name="changes")
    changed_at = models.DateTimeField(auto_now_add=True)
    changed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # Where the change came from (scoring.hall.origin): source, table, team, the login's role and name then.
    source = models.CharField(max_length=10, choices=Source.choices)
    table_number = models.PositiveSmallIntegerField(null=True, blank=True)
    team = models.CharField(max_length=1, choices=TeamLetter.choices, blank=True)
    role = models.CharField(max_length=10, choices=OriginRole.choices, blank=True)
    name = models.CharField(max_length=150, blank=True)
    previous = models.JSONField(null=True, blank=True)
    new = models.JSONField()
    reason = models.TextField(blank=True)
    client = models.CharField(max_length=64, blank=True)  # the device's network address
    submission = models.UUIDField(null=True, blank=True)  # idempotency key of the form sent

    class Meta:
        ordering = ["deal", "changed_at", "id"]
        constraints = [models.UniqueConstraint(fields=["deal", "submission"], name="one_change_per_submission")]


class RoundEvent(models.Model):
    """What happened to a round at a table besides its deals: finished by the
    scorer, disputed by the other team ("Stimmt nicht"), reopened by a correction, confirmed;
    or to a whole round: locked and unlocked. Written by the services that do it, in their
    transaction; shown in time order with the deal changes (``scoring.selectors.table_entry``).
    ``seating`` is None for what concerns every table of the round (a lock)."""

    class Kind(models.TextChoices):
        FINISHED = "finished", _("finished at the table")
        DISPUTED = "disputed", _("disputed by the other team")
        REOPENED = "reopened", _("reopened by a correction")
        CONFIRMED = "confirmed", _("confirmed")
        LOCKED = "locked", _("round locked")
        UNLOCKED = "unlocked", _("round unlocked")
        CLOCK_LOCKED = "clock", _("round locked: time is up")

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="events")
    seating = models.ForeignKey(Seating, null=True, blank=True, on_delete=models.CASCADE, related_name="events")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    at = models.DateTimeField(default=timezone.now)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # Where it came from (scoring.hall.origin): source, table, team, the login's role and name then.
    source = models.CharField(max_length=10, choices=Source.choices, blank=True)
    table_number = models.PositiveSmallIntegerField(null=True, blank=True)
    team = models.CharField(max_length=1, choices=TeamLetter.choices, blank=True)
    role = models.CharField(max_length=10, choices=OriginRole.choices, blank=True)
    name = models.CharField(max_length=150, blank=True)

    class Meta:
        ordering = ["round", "at", "id"]


class AttemptCounter(models.Model):
    """Failed attempts (wrong table links or codes) per key and time window, all workers (``scoring.hall.throttle``)."""

    key = models.CharField(max_length=200, unique=True)
    count = models.PositiveIntegerField(default=0)
    window_start = models.DateTimeField()

    class Meta:
        verbose_name = _("attempt counter")


class Season(models.Model):
    """A season (Saison, Serie): evenings of a year scored together (docs/rules.md, "The season (Jahreswertung)").

    How it is scored is :mod:`scoring.domain.season`: ``scoring`` (sum of evening totals,
    placement points per evening from ``placement_points``, or the average per evening played),
    ``best_of`` (only the best N evenings count; empty: all), ``min_evenings`` (fewer evenings:
    listed below the ranking, unranked). The season is final when ``planned_evenings`` evenings
    belong to it and every one is confirmed; until then its ranking is provisional.
    An evening belongs to at most one season (:class:`SeasonEvening`).
    """

    class Scoring(models.TextChoices):
        SUM = "sum", _("Sum of the evening totals")
        POINTS = "points", _("Placement points per evening")
        AVERAGE = "average", _("Average per evening played")

    name = models.CharField(_("name"), max_length=120, validators=[validate_no_bidi_controls])
    year = models.PositiveSmallIntegerField(_("year"), validators=[MinValueValidator(1900), MaxValueValidator(2200)])
    scoring = models.CharField(_("scoring"), max_length=10, choices=Scoring.choices, default=Scoring.SUM)
    placement_points = models.JSONField(_("placement points"), default=list, blank=True)
    best_of = models.PositiveSmallIntegerField(_("best evenings that count"), null=True, blank=True)
    min_evenings = models.PositiveSmallIntegerField(_("minimum evenings to be ranked"), default=1)
    planned_evenings = models.PositiveSmallIntegerField(
        _("evenings planned"), default=12, validators=[MinValueValidator(1), MaxValueValidator(100)]
    )
    tie_break = models.CharField(_("ties"), max_length=100, blank=True)
    public_player_pages = models.BooleanField(_("public player pages allowed"), default=False)
    evenings = models.ManyToManyField(Evening, through="SeasonEvening", related_name="seasons")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-year", "name", "id"]
        verbose_name = _("season")
        verbose_name_plural = _("seasons")

    def __str__(self) -> str:
        return self.name


class SeasonEvening(models.Model):
    """An evening's place in a season; one season at most per evening (``evening`` is unique)."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="links")
    evening = models.OneToOneField(Evening, on_delete=models.CASCADE, related_name="season_link")

    class Meta:
        ordering = ["season", "evening__date", "evening_id"]
