"""What of a player may leave the hall: the online name, initials, the opaque player key, the
evening's uid (pure Python: no Django, no database)."""

from __future__ import annotations

import hashlib
import hmac

#: The online name choices (``scoring.publishing.models.OnlineName`` values).
FULL, INITIALS, HIDDEN, DEFAULT = "full", "initials", "hidden", "default"


def effective_choice(own: str | None, club_default: str) -> str:
    """The player's own choice, or the club default for ``"default"``/no choice (one of
    ``"full"``, ``"initials"``, ``"hidden"``). Anything unknown counts as ``"hidden"``."""
    choice = club_default if own in (None, "", DEFAULT) else own
    return choice if choice in (FULL, INITIALS, HIDDEN) else HIDDEN


#: The online name choices from the most open to the most private.
PRIVACY_ORDER = (FULL, INITIALS, HIDDEN)


def more_private(kept: str | None, other: str | None, club_default: str) -> str | None:
    """Of two choices for one person (``kept``: the one already held, None: no row), the one to
    keep: ``other`` when its effective choice (:func:`effective_choice`) is strictly more private
    than ``kept``'s (full name < initials < not online), else ``kept``."""
    rank = {choice: index for index, choice in enumerate(PRIVACY_ORDER)}
    if rank[effective_choice(other, club_default)] > rank[effective_choice(kept, club_default)]:
        return other
    return kept


def initials(name: str) -> str:
    """A name's initials as the hub shows them: ``"Hans Jürgen"`` -> ``"H. J."``,
    ``"Hans-Jürgen Petersen"`` -> ``"H.-J. P."``, ``"Petersen, Anna"`` -> ``"A. P."`` (surname
    after the comma moves to the end); ``""`` for a name without letters."""
    if "," in name:
        surname, _, given = name.partition(",")
        name = f"{given} {surname}"
    words = []
    for word in name.split():
        parts = [part for part in word.split("-") if part]
        letters = [next((c for c in part if c.isalnum()), "") for part in parts]
        shown = "-".join(f"{letter.upper()}." for letter in letters if letter)
        if shown:
            words.append(shown)
    return " ".join(words)


def online_name(name: str, choice: str) -> str | None:
    """The name that goes online for an effective choice (:func:`effective_choice`), or None
    (the player does not appear by name or key)."""
    if choice == FULL:
        return name
    if choice == INITIALS:
        return initials(name) or None
    return None


def player_key(secret: str, player_id: int) -> str:
    """The opaque, stable key of a player: ``"p-"`` and 10 hexadecimal digits of an HMAC-SHA256
    of the hall's secret and the player's id (the same player keeps it across evenings; it cannot
    be turned back into a name or an id)."""
    digest = hmac.new(secret.encode(), f"player:{player_id}".encode(), hashlib.sha256).hexdigest()
    return f"p-{digest[:10]}"


def evening_uid(installation_id: str, evening_id: int) -> str:
    """An evening's uid: the hall's installation id and the evening's id (``"2f0c…-17"``)."""
    return f"{installation_id}-{evening_id}"


def season_uid(installation_id: str, season_id: int) -> str:
    """A season's uid (``"2f0c…-s3"``)."""
    return f"{installation_id}-s{season_id}"
