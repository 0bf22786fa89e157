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
    "photo_error": None,  # (message key, values) when the photo or the typed tiles could not be read
    "draft": None,  # Draft being corrected | None
    "origin": None,  # Draft as read, to tell whether a correction was made
    "selected": None,  # tile index being fixed, "add" while adding a tile, or None
    "saved_label": None,  # (path, needs_review) of the last saved correction
    "label_error": None,
    "ledger": None,  # Ledger
    "last_result": None,  # wins.ScoredWin of the last valid score, for the ledger
    "pending_wins": (),  # wins.ScoredWin of a 一炮多响 waiting for its other winners
    "ledger_notice": None,
}


def init() -> None:
    for key, value in DEFAULTS.items():
        if key not in st.session_state:
            st.session_state[key] = value
    if st.session_state.ledger is None:
        st.session_state.ledger = Ledger()


def lang() -> str:
    return st.session_state.lang


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
    st.session_state.selected = None
    set_draft(None, origin=True)
