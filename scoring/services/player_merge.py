"""Merging two register entries of the same person (the register is the
identity of a player across evenings).

What moves: every reference to the entry that goes (``remove``) is pointed at the entry that
stays (``keep``): participations (check-in, stand-in), partnerships and so every deal and
matchstick, the session's sit-out, substitutions, the wishes "not together"; any other model
that refers to a player (found through the model's relations, so a later model such as a
season's list is moved too). Then the entry that goes is deleted. The name and club of ``keep``
stay; correct them afterwards if the other spelling was the right one.

Refused, with nothing changed: the same entry twice, an entry that does not exist, and two
entries that both took part in the same evening (one person cannot be twice in one evening; the
ranking of that evening would count them twice).
"""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.db.models import ForeignObjectRel, Model, Q

from scoring.domain.errors import DomainError, gettext_noop
from scoring.models import PartnerExclusion, Player
from scoring.publishing.queue import players_merged
from scoring.selectors.player_merge import MergePreview, merge_preview
from scoring.services.base import ServiceError, evening_changed


def merge_players(*, keep_id: int | None, remove_id: int | None) -> MergePreview:
    """Merge the register entry ``remove_id`` into ``keep_id`` in one transaction: every
    reference moves to ``keep``, then ``remove`` is deleted (see the module docstring).

    Returns:
        The :class:`MergePreview` of what was moved.

    Raises:
        ServiceError: ``players_missing`` (an id is None), ``same_player``, ``unknown_player``,
            ``same_evening`` (both took part in an evening; ``evenings`` names them) or
            ``merge_failed``; nothing is changed.
    """
    try:
        with transaction.atomic():
            # Lock both entries: a check-in of either one cannot slip in between check and move.
            list(Player.objects.select_for_update().filter(pk__in=[keep_id, remove_id]))
            try:
                preview = merge_preview(keep_id=keep_id, remove_id=remove_id)
            except DomainError as error:
                raise ServiceError(error.message, code=error.code, **error.params) from None
            if preview.conflicts:
                raise ServiceError(
                    gettext_noop(
                        "%(keep)s and %(remove)s both took part in %(evenings)s: one person cannot be twice in "
                        "one evening, so these are two different people. Nothing was merged."
                    ),
                    code="same_evening",
                    keep=preview.keep.name,
                    remove=preview.remove.name,
                    evenings=", ".join(f"{e.name} ({e.date:%d.%m.%Y})" for e in preview.conflicts),
                )
            _move_exclusions(preview.keep.pk, preview.remove.pk)
            players_merged(preview.keep.pk, preview.remove.pk)  # online names (scoring.publishing)
            for model, field in _player_references():
                # the model's own manager, whatever it is called (every model here: objects)
                model._default_manager.filter(**{field: preview.remove.pk}).update(**{field: preview.keep.pk})
            preview.remove.delete()
            evening_changed(participants__player=preview.keep.pk)  # every evening of the merged person
    except IntegrityError:
        raise ServiceError(
            gettext_noop("The two entries could not be merged (the data contradict each other). Nothing was merged."),
            code="merge_failed",
        ) from None
    return preview


def _move_exclusions(keep_id: int, remove_id: int) -> None:
    """The wishes "not together" of ``remove`` become ``keep``'s (their pair stays ordered,
    ``player_a`` < ``player_b``; a wish ``keep`` already has for the evening is not doubled)."""
    for wish in PartnerExclusion.objects.filter(Q(player_a_id=remove_id) | Q(player_b_id=remove_id)):
        other = wish.player_b_id if wish.player_a_id == remove_id else wish.player_a_id
        a, b = sorted((keep_id, other))
        if (
            other == keep_id
            or PartnerExclusion.objects.filter(evening=wish.evening_id, player_a=a, player_b=b).exists()
        ):
            wish.delete()
        else:
            PartnerExclusion.objects.filter(pk=wish.pk).update(player_a=a, player_b=b)


def _player_references() -> list[tuple[type[Model], str]]:
    """(model, field name) of every foreign key to Player except the wishes "not together"
    (moved by :func:`_move_exclusions`), also those without a reverse name (``related_name="+"``)."""
    references = []
    for relation in Player._meta.get_fields(include_hidden=True):
        # the reverse side of a relation to Player (a ForeignObjectRel: its foreign key is .field)
        reverse = relation.auto_created and relation.is_relation and not relation.concrete
        if not (reverse and isinstance(relation, ForeignObjectRel)):
            continue
        if relation.many_to_many or relation.related_model is PartnerExclusion:
            continue
        references.append((relation.related_model, relation.field.name))
    return references
