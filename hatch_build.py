"""Wheel build hook: compile the committed translations (locale/*/LC_MESSAGES/django.po) with Babel
and put the ``.mo`` files into the wheel under ``bruus_tournament/resources/locale``.

The checkout keeps only the ``.po`` files (``make translations`` compiles them in place); an installed
application cannot compile into its own package folder, so the wheel carries them compiled.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


class CompileTranslations(BuildHookInterface):
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict) -> None:
        from babel.messages.mofile import write_mo
        from babel.messages.pofile import read_po

        out = Path(tempfile.mkdtemp(prefix="bruus-mo-"))
        for po in sorted(Path(self.root, "locale").glob("*/LC_MESSAGES/django.po")):
            language = po.parent.parent.name
            with po.open("rb") as source:
                catalog = read_po(source, locale=language)
            mo = out / language / "django.mo"
            mo.parent.mkdir(parents=True)
            with mo.open("wb") as target:
                write_mo(target, catalog)
            build_data["force_include"][str(mo)] = f"bruus_tournament/resources/locale/{language}/LC_MESSAGES/django.mo"
