"""What an AppTest page shows people, and a check that a 中文 page says nothing in English.

Allowed in a 中文 page: tile and card notation (5p, 7z, 7B), numbers, the file formats the page names (CSV, JSON,
UTF-8...), the language switch's own "English", and whatever a table holds (item names are bilingual by design);
table headers are checked."""

from __future__ import annotations

import re

from streamlit.testing.v1 import AppTest

MESSAGES = ("title", "header", "subheader", "markdown", "caption", "success", "info", "warning", "error")
WIDGETS = ("button", "checkbox", "toggle", "selectbox", "radio", "number_input", "text_input", "multiselect")
COLLAPSED = 2  # LabelVisibilityMessage.LabelVisibilityOptions.COLLAPSED: a label nobody sees
LANGUAGE_SWITCH = "lang"
NOTATION = re.compile(r"\b(?:\d+[mpszB]|CSV|JSON|UTF-8|JPEG|PNG|WebP|HEIC|ms)\b")
ENGLISH_WORD = re.compile(r"[A-Za-z]{2,}")


def shown_texts(at: AppTest) -> list[str]:
    """Every text, label, choice and table header on the page."""
    texts = [element.value for kind in MESSAGES for element in getattr(at, kind)]
    for kind in WIDGETS:
        for widget in getattr(at, kind):
            if widget.key == LANGUAGE_SWITCH:
                continue
            if widget.proto.label_visibility.value != COLLAPSED:
                texts.append(widget.label)
            texts += [str(option) for option in getattr(widget, "options", [])]
    texts += [str(column) for table in at.dataframe for column in table.value.columns]
    return texts


def english_words(text: str) -> list[str]:
    return ENGLISH_WORD.findall(NOTATION.sub("", text))


def assert_no_english(at: AppTest) -> None:
    leaks = {text: words for text in shown_texts(at) if (words := english_words(text))}
    assert not leaks, f"English on a 中文 page: {leaks}"
