"""The organiser's guide inside the app (``/hilfe/leitfaden/``): ``organiser-guide.<language>.md``
(``de``, ``en``, ``da``, ``sv``) of ``settings.DOCS_DIR`` (``docs/`` of the checkout, the docs
inside an installed wheel), rendered from Markdown with Python-Markdown.

- **Language**: the reader's language when there is a guide in it, German for a reader of any
  other language. When the file of that language is missing: the next of :data:`FALLBACKS`
  (Danish and Swedish readers get English before German, English readers German; the German
  guide has none); none at all (the page answers 404) when no guide of the chain exists.
- **Trusted**: the docs are files of the repository, so their HTML is shown as it is (raw HTML in
  them included). Python-Markdown writes no inline style or script (a table column's alignment as
  the ``align`` attribute, not a ``style``), so the site's Content Security Policy holds.
- **Headings** get ids as GitHub makes them (lower case, punctuation dropped, each space a
  hyphen), so that a link ``#…`` inside the guide works here as on GitHub.
- **Links**: to a place in the guide (``#…``), to the web and to a page of the app stay as
  written; a link to the guide's file in either language opens this page in that language; a
  link to any other file of the repository (``rules.md``, ``../README.md``), which the app does
  not serve, is shown as its text. A link alone in its list item, paragraph or cell (the table of
  contents, a list of links) is marked ``class="alone"``: a full touch target on a phone, where a
  link within a sentence needs none.

Rendered once per file version (path, modification time, size) and worker.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path, PurePosixPath
from urllib.parse import urlencode, urlsplit
from xml.etree import ElementTree

import markdown
from django.utils.safestring import SafeString, mark_safe
from markdown.extensions import Extension
from markdown.extensions.tables import TableExtension
from markdown.extensions.toc import TocExtension
from markdown.treeprocessors import Treeprocessor

#: Language -> the guide's file in the docs folder.
GUIDE_FILES = {code: f"organiser-guide.{code}.md" for code in ("de", "en", "da", "sv")}
#: The guide's language for readers of any other language.
FALLBACK = "de"
#: Language -> the guides to show, in this order, when its own file is missing: a Danish or
#: Swedish club reads English more readily than German.
FALLBACKS = {"de": (), "en": ("de",), "da": ("en", "de"), "sv": ("en", "de")}
#: The query parameter that asks for the guide in one language (links between the two files).
LANGUAGE_PARAMETER = "sprache"


@dataclass(frozen=True)
class Guide:
    """The guide as shown: its first heading (the page title), its HTML, its language."""

    title: str
    html: SafeString
    language: str


def guide_language(language: str | None) -> str:
    """The guide's language for a reader of ``language`` (``en``, ``en-gb``: English; ``da``:
    Danish; ``sv``: Swedish; German for German and every other language)."""
    code = (language or "").lower().split("-")[0]
    return code if code in GUIDE_FILES else FALLBACK


def load_guide(language: str | None, docs_dir: Path, page_url: str) -> Guide | None:
    """The guide for a reader of ``language`` from ``docs_dir``, its links to the guide's files
    pointing to ``page_url``; None when no guide file is there."""
    wanted = guide_language(language)
    for code in dict.fromkeys((wanted, *FALLBACKS.get(wanted, ()), FALLBACK)):
        path = Path(docs_dir) / GUIDE_FILES[code]
        try:
            stat = path.stat()
        except OSError:
            continue
        try:
            title, html = _rendered(str(path), stat.st_mtime_ns, stat.st_size, page_url)
        except FileNotFoundError:  # removed in between
            continue
        return Guide(title=title, html=mark_safe(html), language=code)  # trusted: the repository's docs
    return None


def github_slug(value: str, separator: str = "-") -> str:
    """A heading's id as GitHub makes it: lower case, every character that is not a letter,
    digit, ``_``, ``-`` or space dropped, each space a hyphen ("1. Vor dem Abend – Überblick" ->
    ``1-vor-dem-abend--überblick``)."""
    return re.sub(r"[^\w\- ]", "", value.strip().lower()).replace(" ", separator)


@lru_cache(maxsize=8)
def _rendered(path: str, mtime_ns: int, size: int, page_url: str) -> tuple[str, str]:
    """(first heading, HTML) of one version of a guide file (the time and size in the key)."""
    md = markdown.Markdown(
        extensions=[
            TableExtension(use_align_attribute=True),
            TocExtension(slugify=github_slug, permalink=False),
            "fenced_code",
            "sane_lists",
            _AppLinksExtension(page_url=page_url),
        ],
        output_format="html",
    )
    html = md.convert(Path(path).read_text(encoding="utf-8"))
    tokens = md.toc_tokens
    title = next((t["name"] for t in tokens if t["level"] == 1), tokens[0]["name"] if tokens else "")
    return title, html


class _AppLinks(Treeprocessor):
    """Links as the app can follow them (see the module's docstring)."""

    def __init__(self, md, page_url: str):
        super().__init__(md)
        self.page_url = page_url
        self.files = {name: code for code, name in GUIDE_FILES.items()}

    def run(self, root: ElementTree.Element) -> None:
        for link in root.iter("a"):
            href = link.get("href", "")
            parts = urlsplit(href)
            if not href or parts.scheme or parts.netloc or href.startswith(("#", "/")):
                continue  # a place in the guide, the web, mail, a page of the app
            code = self.files.get(PurePosixPath(parts.path).name)
            if code is not None:
                fragment = f"#{parts.fragment}" if parts.fragment else ""
                link.set("href", f"{self.page_url}?{urlencode({LANGUAGE_PARAMETER: code})}{fragment}")
            else:  # another file of the repository: not served by the app
                link.tag = "span"
                link.attrib.clear()
        for block in root.iter():
            if block.tag in ALONE_IN and (alone := _alone_link(block)) is not None:
                alone.set("class", "alone")


#: The blocks whose only link (before any nested list) is a link of its own, not part of a sentence.
ALONE_IN = {"li", "p", "td", "th"}


def _alone_link(block: ElementTree.Element) -> ElementTree.Element | None:
    """The link that is all of ``block`` but its nested lists, else None."""
    children = list(block)
    if (block.text or "").strip() or not children or children[0].tag != "a" or (children[0].tail or "").strip():
        return None
    if any(child.tag not in ("ul", "ol") or (child.tail or "").strip() for child in children[1:]):
        return None
    return children[0]


class _AppLinksExtension(Extension):
    def __init__(self, page_url: str):
        self.page_url = page_url
        super().__init__()

    def extendMarkdown(self, md) -> None:
        # After the inline patterns (priority 20) have made the links.
        md.treeprocessors.register(_AppLinks(md, self.page_url), "bruus_app_links", 4)
