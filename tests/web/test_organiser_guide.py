"""The organiser's guide in the app (/hilfe/leitfaden/): docs/organiser-guide.de.md or .en.md
rendered from Markdown inside the app's layout, in the reader's language (German when English is
missing), 404 without a guide, linked from the help page. The tests write their own guide files
into a folder of their own (DOCS_DIR), so they do not depend on the text of the real guide; one
test reads the real files when they are there."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.urls import reverse

from scoring.web import guide

pytestmark = pytest.mark.django_db

URL = "/hilfe/leitfaden/"
GERMAN = "\n".join(
    [
        "# Anleitung für die Turnierleitung",
        "",
        "Ein Abend von Anfang bis Ende. Siehe [Regeln](rules.md), [English](organiser-guide.en.md#2-the-hall),",
        "[unten](#2-die-halle-tablets--handys) und [Bruus](https://example.org/bruus).",
        "",
        "## 1. Vor dem Abend",
        "",
        "| Schritt | Minuten |",
        "| :--- | ---: |",
        "| Tische & Tablets | 30 |",
        "",
        "```",
        "bruus-turnier serve",
        "```",
        "",
        "## 2. Die Halle: Tablets – Handys",
        "",
        "Text mit `code`.",
        "",
    ]
)
ENGLISH = "# The organiser's guide\n\nAn evening from beginning to end.\n\n## 2. The hall\n\nTablets.\n"


def h1(page: str) -> str:
    return re.search(r"<h1[^>]*>(.*?)</h1>", page, re.S).group(1)


def title(page: str) -> str:
    return re.search(r"<title>(.*?)</title>", page, re.S).group(1)


@pytest.fixture
def docs(tmp_path, settings):
    """A docs folder of the test's own with both guides (settings.DOCS_DIR points to it)."""
    (tmp_path / guide.GUIDE_FILES["de"]).write_text(GERMAN, encoding="utf-8")
    (tmp_path / guide.GUIDE_FILES["en"]).write_text(ENGLISH, encoding="utf-8")
    settings.DOCS_DIR = tmp_path
    return tmp_path


def test_the_guide_in_german_inside_the_apps_layout(client, docs):
    response = client.get(reverse("public:guide"), HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 200
    page = response.content.decode()
    assert reverse("public:guide") == URL
    assert h1(page) == "Anleitung für die Turnierleitung"
    assert title(page) == "Anleitung für die Turnierleitung"
    assert '<header class="top">' in page and '<footer class="app-version">' in page  # base.html
    assert '<article class="guide" lang="de">' in page
    assert '<h2 id="1-vor-dem-abend">1. Vor dem Abend</h2>' in page
    assert "<pre><code>bruus-turnier serve\n</code></pre>" in page
    assert '<td align="left">Tische &amp; Tablets</td>' in page
    assert "gibt es in dieser Sprache noch nicht" not in page


def test_the_guide_in_english_for_an_english_reader_or_when_asked_for(client, docs):
    page = client.get(URL, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert h1(page) == "The organiser's guide"
    assert '<article class="guide" lang="en">' in page and "Anleitung" not in page
    page = client.get(URL + "?sprache=en", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert '<article class="guide" lang="en">' in page and '<html lang="de">' in page
    page = client.get(URL + "?sprache=xx", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert '<article class="guide" lang="en">' in page


def test_an_english_reader_gets_the_german_guide_when_there_is_no_english_one(client, docs):
    (docs / guide.GUIDE_FILES["en"]).unlink()
    response = client.get(URL, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200
    page = response.content.decode()
    assert h1(page) == "Anleitung für die Turnierleitung" and '<article class="guide" lang="de">' in page
    assert "The organiser's guide is not available in this language yet; here it is in German." in page


@pytest.mark.parametrize("language", ["de", "en", "da", "sv"])
def test_no_guide_answers_404_not_500(client, tmp_path, settings, language):
    settings.DOCS_DIR = tmp_path
    response = client.get(URL, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 404
    (tmp_path / guide.GUIDE_FILES["en"]).write_text(ENGLISH, encoding="utf-8")
    assert client.get(URL, HTTP_ACCEPT_LANGUAGE="de").status_code == 404  # German has no fallback
    settings.DOCS_DIR = tmp_path / "missing"
    response = client.get(URL, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 404
    assert "<h1>" in response.content.decode()  # the friendly 404 page


def test_links_lead_where_the_app_can_follow_them(client, docs):
    page = client.get(URL, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Siehe <span>Regeln</span>," in page  # another file of the docs: not served, shown as text
    assert f'<a href="{URL}?sprache=en#2-the-hall">English</a>' in page
    assert '<a href="#2-die-halle-tablets--handys">unten</a>' in page  # ids as GitHub makes them
    assert 'id="2-die-halle-tablets--handys"' in page
    assert '<a href="https://example.org/bruus">Bruus</a>' in page


def test_a_link_alone_in_its_item_is_a_full_touch_target(tmp_path, settings):
    """The table of contents and lists of links: marked for the 44 px touch target; a link
    within a sentence is not."""
    text = "# Titel\n\n[TOC]\n\n- [Allein](#a)\n- Mit [Text](#b) darum\n\n[Absatz](#c)\n\n## A\n\n## B\n"
    (tmp_path / guide.GUIDE_FILES["de"]).write_text(text, encoding="utf-8")
    shown = guide.load_guide("de", tmp_path, URL)
    assert shown.title == "Titel" and shown.language == "de"
    assert '<li><a class="alone" href="#a">Allein</a></li>' in shown.html
    assert '<li>Mit <a href="#b">Text</a> darum</li>' in shown.html
    assert '<p><a class="alone" href="#c">Absatz</a></p>' in shown.html
    assert '<li><a class="alone" href="#titel">Titel</a><ul>' in shown.html  # table of contents
    assert '<li><a class="alone" href="#a">A</a></li>' in shown.html


def test_the_content_security_policy_holds(client, docs):
    """No inline style or script: a column's alignment is an attribute, the policy is sent."""
    response = client.get(URL)
    page = response.content.decode()
    assert response["Content-Security-Policy"] == django_settings.CONTENT_SECURITY_POLICY
    article = page[page.index('<article class="guide"') : page.index("</article>")]
    assert "style=" not in article and "<script" not in article
    assert '<th align="left">Schritt</th>' in article and '<td align="right">30</td>' in article


def test_a_changed_guide_is_shown_at_once(client, docs):
    assert h1(client.get(URL).content.decode()) == "Anleitung für die Turnierleitung"
    (docs / guide.GUIDE_FILES["de"]).write_text("# Neue Anleitung, länger als vorher\n", encoding="utf-8")
    assert h1(client.get(URL).content.decode()) == "Neue Anleitung, länger als vorher"


def test_the_guide_is_read_only(client, docs):
    assert client.post(URL).status_code == 405


def test_the_help_page_links_to_the_guide(client, docs):
    for language, text in (("de", "die Anleitung für die Turnierleitung"), ("en", "the organiser's guide")):
        page = client.get(reverse("public:help"), HTTP_ACCEPT_LANGUAGE=language).content.decode()
        assert f'<a href="{URL}">{text}</a>' in page, language
        link = page[page.index('data-testid="guide-link"') :].split("</p>")[0]
        assert URL in link


def _first_heading(path: Path) -> str:
    return re.search(r"^#\s+(.+?)\s*$", path.read_text(encoding="utf-8"), re.M).group(1)


@pytest.mark.parametrize("language", ["de", "en", "da", "sv"])
def test_the_real_guide_is_shown_with_its_first_heading(client, language):
    """The guide of the repository (docs/), when it is there."""
    path = Path(django_settings.DOCS_DIR) / guide.GUIDE_FILES[language]
    if not path.is_file():
        pytest.skip(f"{path} is not written yet")
    response = client.get(URL, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    page = response.content.decode()
    assert f'<article class="guide" lang="{language}">' in page
    assert html.escape(_first_heading(path), quote=False) in page


DANISH = "# Vejledning til turneringslederen\n\nEn aften fra start til slut.\n"


def test_a_danish_reader_gets_the_danish_guide(client, docs):
    (docs / guide.GUIDE_FILES["da"]).write_text(DANISH, encoding="utf-8")
    page = client.get(URL, HTTP_ACCEPT_LANGUAGE="da").content.decode()
    assert h1(page) == "Vejledning til turneringslederen" and '<article class="guide" lang="da">' in page
    assert '<html lang="da">' in page
    page = client.get(URL + "?sprache=da", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert '<article class="guide" lang="da">' in page and '<html lang="de">' in page


def test_danish_and_swedish_readers_get_english_then_german_when_their_guide_is_missing(client, docs):
    """A Danish or Swedish club reads English more readily than German: that guide first, with a
    line in the reader's language saying so."""
    page = client.get(URL, HTTP_ACCEPT_LANGUAGE="sv").content.decode()
    assert '<article class="guide" lang="en">' in page and '<html lang="sv">' in page
    (docs / guide.GUIDE_FILES["en"]).unlink()
    page = client.get(URL, HTTP_ACCEPT_LANGUAGE="da").content.decode()
    assert '<article class="guide" lang="de">' in page and '<html lang="da">' in page
    assert "her er den på tysk." in page  # the line saying the guide is shown in German, in Danish


def test_the_guide_language_of_a_reader():
    assert [guide.guide_language(code) for code in ("de", "en-GB", "da-DK", "sv", "fr", None)] == [
        "de",
        "en",
        "da",
        "sv",
        "de",
        "de",
    ]
