"""What the backup command, the restore command and the organiser's backup page say: the file
name of a backup and the summary of a restore, in the active language. One text for both, so
the page and the command line say the same."""

from __future__ import annotations

from django.utils import formats, timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _

from scoring.backup.merge import RestoreOutcome
from scoring.transfer.filenames import GERMAN_LETTERS

#: Levels of the summary's lines.
INFO, WARNING, SUCCESS = "info", "warning", "success"


def file_name(evening=None, *, suffix: str = ".json") -> str:
    """``bruus-<evening>-<date>-<time>.json`` (``bruus-datenbank-…`` for the whole database),
    the moment in local time."""
    if evening is None:
        stem = "datenbank"
    else:
        stem = slugify(evening.name.translate(GERMAN_LETTERS))[:60] or "abend"
    stamp = timezone.localtime().strftime("%Y-%m-%d-%H%M%S")
    return f"bruus-{stem}-{stamp}{suffix}"


def restore_summary(outcome: RestoreOutcome, *, done: bool = True) -> list[tuple[str, str]]:
    """The lines (level, text) that report a restore: who made the file, each evening, the
    players and deals, new table links, unknown logins, ignored fields and, when ``done``,
    "Restore complete." (a preview leaves it out)."""
    lines = _contents(outcome) + _notes(outcome)
    if done:
        lines.append((SUCCESS, _("Restore complete.")))
    return lines


def _contents(outcome: RestoreOutcome) -> list[tuple[str, str]]:
    """Who made the file, each evening restored, the players and deals."""
    lines: list[tuple[str, str]] = []
    if outcome.app_version:
        lines.append((INFO, _("Backup made by Bruus Turnier %(version)s.") % {"version": outcome.app_version}))
    else:
        lines.append(
            (
                INFO,
                _(
                    "The backup does not say which version of Bruus Turnier made it "
                    "(versions before 0.9.0 did not record it)."
                ),
            )
        )
    for evening in outcome.evenings:
        lines.append(
            (
                INFO,
                _("Evening restored: %(name)s, %(date)s (number %(id)s)")
                % {
                    "name": evening.name,
                    "date": formats.date_format(evening.date, "SHORT_DATE_FORMAT"),
                    "id": evening.pk,
                },
            )
        )
    lines.append(
        (
            INFO,
            _("Players: %(new)s new, %(reused)s already in the register. Deals: %(deals)s.")
            % {"new": outcome.players_new, "reused": outcome.players_reused, "deals": outcome.deals},
        )
    )
    return lines


def _notes(outcome: RestoreOutcome) -> list[tuple[str, str]]:
    """New table links, unknown logins and ignored fields, each only when there are any."""
    lines: list[tuple[str, str]] = []
    if outcome.new_tokens:
        lines.append(
            (
                WARNING,
                _(
                    "%(count)s tables got a new tablet link and table code because their link or code is "
                    "already used in this database: open the new links (or print the score sheets with the "
                    "QR codes and codes again)."
                )
                % {"count": outcome.new_tokens},
            )
        )
    if outcome.unknown_users:
        lines.append(
            (
                INFO,
                _("Unknown logins, kept only as text in the history: %(names)s")
                % {"names": ", ".join(outcome.unknown_users)},
            )
        )
    if outcome.ignored_fields:
        lines.append(
            (
                WARNING,
                _("Fields this version does not know were ignored: %(fields)s")
                % {"fields": ", ".join(outcome.ignored_fields)},
            )
        )
    return lines
