"""Wheel build hook: the committed translations (``locale/*/LC_MESSAGES/django.po``) compiled into
the wheel as ``bruus_tournament/resources/locale/<language>/LC_MESSAGES/django.mo``.

The checkout keeps only the ``.po`` files; an installed application cannot compile into its own
package folder, so the wheel carries them compiled. The compiling is
``bruus_tournament/translations.py``, loaded by path (the build environment has Babel, not Django).
"""

from __future__ import annotations

import importlib.util
import tempfile
from pathlib import Path

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


def _translations(root: str):
    spec = importlib.util.spec_from_file_location(
        "_bruus_translations", Path(root, "bruus_tournament", "translations.py")
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class CompileTranslations(BuildHookInterface):
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict) -> None:
        translations = _translations(self.root)
        out = Path(tempfile.mkdtemp(prefix="bruus-mo-"))
        for po in translations.catalogs(Path(self.root, "locale")):
            language = po.parent.parent.name
            mo = out / language / "django.mo"
            translations.compile_catalog(po, mo)
            build_data["force_include"][str(mo)] = f"bruus_tournament/resources/locale/{language}/LC_MESSAGES/django.mo"
