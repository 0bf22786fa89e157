"""The main page: photo -> detections drawn -> hand as tiles (fix by tapping) -> context -> score or waits."""

from __future__ import annotations

import streamlit as st

from mjsnap.app import context_form, editor, hand_view, photo_input, result_view, state
from mjsnap.app.draft import DraftTile, MeldProblem, from_read
from mjsnap.app.overlay import draw_detections
from mjsnap.app.taps import smallest_box_at, tappable_photo
from mjsnap.app.wins import ScoredWin
from mjsnap.i18n_catalogue import explain
from scoring.hand import HandError
from scoring.scorer import score, waits


def _read_current_photo(t) -> None:
    """Run the model on a new photo once; the draft starts from what it read."""
    photo = st.session_state.photo
    if photo is None or st.session_state.reading is not None or st.session_state.photo_error:
        return
    from vision.detector import ModelNotFoundError
    from vision.imageio import ImageReadError

    from mjsnap.app import recognize

    try:
        with st.spinner("…"):
            reading = recognize.read_photo(photo.data)
    except ImageReadError:
        st.session_state.photo_error = ("not_an_image", {"name": photo.name})
        return
    except ModelNotFoundError as exc:
        st.session_state.photo_error = ("no_model", {"path": str(recognize.model_dir()), "detail": str(exc)})
        return
    st.session_state.reading = reading
    state.set_draft(from_read(reading.read), origin=True)


def _photo_panel(t) -> None:
    reading = st.session_state.reading
    draft = state.draft()
    image = draw_detections(reading.pixels, reading.to_original, draft.tiles)
    shown = sum(tile.box is not None and tile.place != "deleted" for tile in draft.tiles)
    # the column's width (358 CSS px on a 390 px phone): overlay.py sizes its labels for it
    tappable_photo(image, "photo-tap", (0, 0, reading.width, reading.height), _photo_tapped)
    st.caption(t("photo_caption", n=shown))
    st.caption(timings_caption(t, reading))
    if "no_tiles" in reading.read.warning_codes:  # said here: the page below only finds a hand of 0 tiles too short
        st.warning(t("photo_no_tiles"))


def tile_at(tiles: list[DraftTile], x: float, y: float) -> int | None:
    """The tile a tap at (x, y) (original-photo pixels) means, among the tiles drawn on the photo."""
    return smallest_box_at((tile.box if tile.place != "deleted" else None for tile in tiles), x, y)


def _photo_tapped(x: float, y: float) -> None:
    """A tap on the photo opens the fix panel of the tile under it, as a tap on its picture in the hand does."""
    index = tile_at(state.draft().tiles, x, y)
    if index is not None:
        st.session_state.selected = index


def timings_caption(t, reading) -> str:
    """Where the reading's time went; the model's loading is named on the photo that loaded it (the server's
    first), where it is most of the time, so that the parts add up."""
    ms = {k: f"{v:.0f}" for k, v in reading.ms.items()}
    key = "timings_with_load" if reading.ms.get("model", 0) >= 1 else "timings"
    return t(key, version=reading.model_version, **ms)


def show(t, lang: str) -> None:
    photo_input.show(t)
    result_view.show_pending(t)
    _read_current_photo(t)
    if st.session_state.photo_error:
        key, values = st.session_state.photo_error
        st.error(t(key, **values))
        return
    if state.draft() is None:
        return
    if st.session_state.reading is not None:
        _photo_panel(t)
    panel_shown = hand_view.show(t, lang)
    editor.show(t, lang, panel_shown)

    draft = state.draft()
    setup = context_form.show(draft, t, lang)
    if setup.error or setup.context is None or setup.options is None:
        st.error(setup.error)
        return
    try:
        hand = draft.hand(setup.context)
    except HandError as exc:
        st.subheader(t("result_header"))
        detail = explain(exc.code, lang, str(exc))
        if isinstance(exc, MeldProblem):  # which meld, numbered as the hand view numbers them
            detail = t("meld_problem", n=exc.meld + 1, detail=detail)
        st.error(t("hand_problem", detail=detail))
        return
    if hand.win_tile is None:
        try:
            entries = waits(hand, setup.ruleset, setup.options)
        except HandError as exc:
            st.error(t("hand_problem", detail=explain(exc.code, lang, str(exc))))
            return
        result_view.show_waits(entries, setup.context, t, lang)
        return
    result = score(hand, setup.ruleset, setup.options)
    win = ScoredWin(setup.ruleset, setup.options, setup.context, result, draft.summary())
    result_view.show_result(win, t, lang)
