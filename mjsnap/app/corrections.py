"""Every correction of a photo's hand is saved as that photo's YOLO label (for retraining, issue 7)."""

from __future__ import annotations

import os
from pathlib import Path

import streamlit as st

from mjsnap.app import state
from mjsnap.labels import LabelBox, LabelDataset, LabelError
from mjsnap.paths import REPO_ROOT


def labels_dir() -> Path:
    """The dataset folder corrections go to: $MJSNAP_LABELS_DIR, else data/corrections in the checkout."""
    return Path(os.environ.get("MJSNAP_LABELS_DIR", REPO_ROOT / "data" / "corrections"))


def save_current() -> None:
    """Save the current draft of the current photo as its label (train split, or val where `mjsnap label split`
    made it a validation photo, or review when an added tile has no box). Nothing is saved for typed hands or
    before the first correction; going back to the reading after a correction saves the reading, so the label
    always matches what the person last accepted."""
    photo, reading, draft = st.session_state.photo, st.session_state.reading, state.draft()
    if photo is None or reading is None or draft is None:
        return
    if draft == st.session_state.origin and st.session_state.saved_label is None:
        return
    boxes, needs_review = draft.label_boxes()
    sx, sy = reading.to_original
    dataset, name = LabelDataset(labels_dir()), f"app_{photo.photo_id}"
    try:
        saved = dataset.save(
            name,
            reading.pixels,
            [
                LabelBox(cls, (x1 / sx, y1 / sy, x2 / sx, y2 / sy))
                for cls, (x1, y1, x2, y2) in boxes
                if x2 > x1 and y2 > y1  # a box squashed flat at the photo's edge shows no tile
            ],
            split=dataset.split_to_save(name, done=not needs_review),
        )
    except (LabelError, OSError) as exc:
        st.session_state.label_error = exc  # shown in the page's language (i18n.label_problem)
        st.session_state.saved_label = None
        return
    st.session_state.saved_label = (str(saved.label), needs_review)
    st.session_state.label_error = None
