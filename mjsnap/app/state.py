"""The app's session state in one place: what each key holds, with typed getters and setters."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

import streamlit as st

from mjsnap.app.draft import Draft
from mjsnap.app.ledger import Ledger


@dataclass(frozen=True)
class Photo:
    """A photo as it arrived (bytes untouched: full resolution, EXIF kept) and where it came from."""

    name: str
    data: bytes
    source: str  # "upload" | "camera" | "sample"

    @property
    def photo_id(self) -> str:
        """Stable per content: the same photo corrected twice overwrites one label."""
        return hashlib.sha1(self.data).hexdigest()[:16]


DEFAULTS: dict[str, Any] = {
    "lang": "zh",
    "page": "score",
    "photo": None,  # Photo | None
    "reading": None,  # recognize.Reading of the current photo | None
    "photo_error": None,  # (message key, values) when the photo could not be read
    "typed_error": None,  # (message key, values) when the typed tiles could not be read; the current hand stays
    "draft": None,  # Draft being corrected | None
    "origin": None,  # Draft as read, to tell whether a correction was made
    "selected": None,  # tile index being fixed, "add" while adding a tile, or None
    "saved_label": None,  # (path, needs_review) of the last saved correction
    "label_error": None,
    "ledger": None,  # Ledger
    "last_result": None,  # wins.ScoredWin of the last valid score, for the ledger
    "pending_wins": (),  # wins.ScoredWin of a 一炮多响 waiting for its other winners
    "recorded": None,  # (draft, number of hands) of the hand last put into the ledger, until the tiles change
    "ledger_notice": None,
}

# The inputs of each page, by key prefix: kept while another page is shown (keep_inputs). Buttons, uploaders and
# tables are left out: Streamlit refuses a value set for them.
PAGE_INPUTS: dict[str, tuple[str, ...]] = {
    "score": ("ctx-", "opt-", "typed_", "sample_choice"),
    "ledger": ("player-",),
    "dice": ("dice-",),
    "weimaque": ("wmq-",),
    "label": ("lp_folder", "lp_dataset"),
}


def init() -> None:
    for key, value in DEFAULTS.items():
        if key not in st.session_state:
            st.session_state[key] = value
    if st.session_state.ledger is None:
        st.session_state.ledger = Ledger()


def lang() -> str:
    return st.session_state.lang


def _inputs_of(pages) -> list[str]:
    prefixes = tuple(prefix for page in pages for prefix in PAGE_INPUTS[page])
    return [key for key in st.session_state if isinstance(key, str) and key.startswith(prefixes)]


def keep_inputs() -> None:
    """Called at the top of every run. Streamlit forgets the value of a widget that a run does not show, so a visit
    to another page reset the hand's rule set, seats and bets (and the dice, the 偎麻雀 hand, the label folder);
    a value set through the session is kept. The page shown keeps its own widgets."""
    for key in _inputs_of(page for page in PAGE_INPUTS if page != st.session_state.page):
        st.session_state[key] = st.session_state[key]


def show_inputs() -> None:
    """The page and language switches' callback: every kept input set again, so that the next run shows it.
    A widget created again on a page switch shows its default, not the value kept; and the browser holds a choice
    as the text it shows, which after a language switch is no option, so the choice fell back to the first (the
    rule set to Shaanxi, the page to Score)."""
    for key in ["page", *_inputs_of(PAGE_INPUTS)]:
        st.session_state[key] = st.session_state[key]


def ledger() -> Ledger:
    return st.session_state.ledger


def set_ledger(value: Ledger) -> None:
    st.session_state.ledger = value


def draft() -> Draft | None:
    return st.session_state.draft


def set_draft(value: Draft | None, *, origin: bool = False) -> None:
    st.session_state.draft = value
    if origin:
        st.session_state.origin = value
        st.session_state.saved_label = None
        st.session_state.label_error = None
    st.session_state.last_result = None


def new_photo(photo: Photo | None) -> None:
    """A new photo replaces the old one and everything read from it."""
    st.session_state.photo = photo
    st.session_state.reading = None
    st.session_state.photo_error = None
    st.session_state.typed_error = None
    st.session_state.selected = None
    set_draft(None, origin=True)
