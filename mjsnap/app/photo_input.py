"""Where a photo comes from: the file uploader (on a phone it opens the camera and keeps the full photo with its
EXIF), the browser camera, a bundled sample, or tiles typed by hand when there is no photo."""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from mjsnap.app import camera, state, uploader
from mjsnap.app.draft import WinTileCountError, from_text
from scoring.tiles import TileParseError, TooManyCopiesError, format_compact

SAMPLES_DIR = Path(__file__).parent / "samples"
UPLOAD_TYPES = ["jpg", "jpeg", "png", "webp", "heic", "heif"]


def samples() -> list[Path]:
    return sorted(SAMPLES_DIR.glob("*.jpg"))


def _from_widget(key: str, source: str) -> None:
    uploaded = st.session_state.get(key)
    if uploaded is not None:
        state.new_photo(state.Photo(uploaded.name, uploaded.getvalue(), source))


def _from_sample() -> None:
    path = SAMPLES_DIR / st.session_state.sample_choice
    state.new_photo(state.Photo(path.name, path.read_bytes(), "sample"))


def _from_text() -> None:
    tiles, win = st.session_state.typed_tiles.strip(), st.session_state.typed_win.strip()
    try:
        draft = from_text(tiles, win or None)
    except TileParseError as exc:
        text, at = exc.text, exc.position
        # said beside the typed tiles: a typo must not hide the hand of the photo being corrected
        if at is not None and 0 <= at < len(text):
            st.session_state.typed_error = ("bad_tile_at", {"n": at + 1, "char": text[at]})
        else:
            st.session_state.typed_error = ("bad_tiles", {"detail": str(exc)})
        return
    except TooManyCopiesError as exc:  # 11111m: a typo as much as a wrong letter
        st.session_state.typed_error = ("typed_too_many", {"tile": format_compact([exc.kind]), "n": exc.count})
        return
    except WinTileCountError as exc:
        st.session_state.typed_error = ("one_win_tile", {"n": exc.count})
        return
    state.new_photo(None)
    state.set_draft(draft, origin=True)


def show(t) -> None:
    """The input panel; a new photo or typed hand is put into the session state by the widgets' callbacks."""
    st.subheader(t("photo_header"))
    uploader.file_uploader(t, t("upload"), UPLOAD_TYPES, "uploader", on_change=_from_widget, args=("uploader", "upload"))
    if st.toggle(t("use_camera"), key="camera_on"):
        camera.camera_input(t, t("camera"), "camera", on_change=_from_widget, args=("camera", "camera"))
    sample_files = samples()
    if sample_files:
        with st.container(horizontal=True, vertical_alignment="bottom"):
            st.selectbox(t("sample"), [p.name for p in sample_files], key="sample_choice", width=220,
                         format_func=lambda name: t(f"sample_{Path(name).stem}"))
            st.button(t("use_sample"), key="use_sample", on_click=_from_sample)
    with st.expander(t("type_hand")):
        st.text_input(t("typed_tiles"), key="typed_tiles", placeholder="123m456p789s1122z")
        st.text_input(t("typed_win"), key="typed_win", placeholder="2z")
        st.button(t("use_typed"), key="use_typed", on_click=_from_text)
        if st.session_state.typed_error:
            key, values = st.session_state.typed_error
            st.error(t(key, **values))
