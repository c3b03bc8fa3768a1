from django.apps import AppConfig
from django.db.models.signals import post_migrate
from django.utils.translation import gettext_lazy as _


def _ensure_groups(sender, **kwargs):
    """After every migrate (and a test database flush): the roles' groups exist."""
    from scoring.hall.roles import ensure_groups

    ensure_groups()


class ScoringConfig(AppConfig):
    name = "scoring"
    verbose_name = _("Bruus tournament")

    def ready(self):
        post_migrate.connect(_ensure_groups, sender=self, dispatch_uid="scoring-ensure-groups")
        from scoring.setup.schema_version import record_after_migrate

        # Which program migrated the database last: an older one refuses it (bruus-turnier).
        post_migrate.connect(record_after_migrate, sender=self, dispatch_uid="scoring-record-version")
        from scoring.hall.auth_backends import connect_signals

        connect_signals()
