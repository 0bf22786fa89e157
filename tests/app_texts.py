"""What an AppTest page shows people, and a check that a 中文 page says nothing in English.

Allowed in a 中文 page: tile and card notation (5p, 7z, 7B), numbers, the file formats the page names (CSV, JSON,
UTF-8...), paths and file names (data, not words), the language switch's own "English", and whatever a table holds
(item names are bilingual by design); table headers are checked as shown."""

from __future__ import annotations

import json
import re
from pathlib import Path

from streamlit.testing.v1 import AppTest

APP = str(Path(__file__).resolve().parent.parent / "app.py")

MESSAGES = ("title", "header", "subheader", "markdown", "caption", "success", "info", "warning", "error")
WIDGETS = ("button", "checkbox", "toggle", "selectbox", "radio", "number_input", "text_input", "multiselect")
COLLAPSED = 2  # LabelVisibilityMessage.LabelVisibilityOptions.COLLAPSED: a label nobody sees
LANGUAGE_SWITCH = "lang"
NOTATION = re.compile(r"\b(?:\d+[mpszB]|CSV|JSON|UTF-8|JPEG|PNG|WebP|HEIC|ms)\b")
PATHS = re.compile(r"(?:/[^\s/：]+)+/?|[^\s/：]+\.(?:jpg|jpeg|png|webp|heic|txt|csv)\b", re.IGNORECASE)
ENGLISH_WORD = re.compile(r"[A-Za-z]{2,}")


def shown_texts(at: AppTest) -> list[str]:
    """Every text, label, choice and table header on the page."""
    texts = [element.value for kind in MESSAGES for element in getattr(at, kind)]
    for kind in WIDGETS:
        for widget in getattr(at, kind):
            if widget.key == LANGUAGE_SWITCH:
                continue
            if not _label_collapsed(widget):
                texts.append(widget.label)
            texts += [str(option) for option in getattr(widget, "options", [])]
    texts += [header for table in at.dataframe for header in _headers(table)]
    return texts


def _headers(table) -> list[str]:
    """Column headers as shown: a column's configured label where it has one (the label page's table)."""
    config = json.loads(table.proto.columns or "{}")
    return [config.get(str(column), {}).get("label", str(column)) for column in table.value.columns]


def _label_collapsed(widget) -> bool:
    proto = widget.proto
    return "label_visibility" in proto.DESCRIPTOR.fields_by_name and proto.label_visibility.value == COLLAPSED


def english_words(text: str) -> list[str]:
    return ENGLISH_WORD.findall(NOTATION.sub("", PATHS.sub("", text)))


def assert_no_english(at: AppTest) -> None:
    leaks = {text: words for text in shown_texts(at) if (words := english_words(text))}
    assert not leaks, f"English on a 中文 page: {leaks}"


def run(at: AppTest) -> AppTest:
    """One run of the page, which must not raise."""
    at.run()
    assert not at.exception, at.exception
    return at
