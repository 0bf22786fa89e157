"""The read hand as tile pictures: concealed row, melds, winning tile; tap a tile to fix it."""

from __future__ import annotations

import streamlit as st

from mjsnap.app import editor, state
from mjsnap.app.draft import Draft
from mjsnap.app.i18n import MELD_NAMES, pick, tile_name
from mjsnap.app.overlay import is_low_confidence
from mjsnap.app.tile_pictures import TILE_SIZE, tile_png
from mjsnap.i18n_catalogue import explain
from scoring.tiles import CLASS_NAMES, N_KINDS

TILE_BOX = TILE_SIZE[0] + 4


def _select(index: int | str | None) -> None:
    st.session_state.selected = None if st.session_state.selected == index else index


def frame_of(draft: Draft, origin: Draft | None, index: int, selected, from_photo: bool) -> str:
    tile = draft.tiles[index]
    if selected == index:
        return "selected"
    if origin is not None and index < len(origin.tiles) and origin.tiles[index].kind != tile.kind:
        return "fixed"
    if from_photo and tile.box is None:
        return "added"
    if is_low_confidence(tile):
        return "low"
    return "plain"


def tile_button(draft: Draft, index: int, origin: Draft | None) -> None:
    """One tappable tile: its picture, and a button with its number (the photo's boxes carry the same #n)."""
    selected = st.session_state.selected
    with st.container(width=TILE_BOX, gap=None, horizontal_alignment="center"):
        frame = frame_of(draft, origin, index, selected, st.session_state.photo is not None)
        st.image(tile_png(draft.tiles[index].kind, frame), width=TILE_SIZE[0])
        st.button(
            str(index + 1),
            key=f"tile-{index}",
            on_click=_select,
            args=(index,),
            type="primary" if selected == index else "secondary",
            width="stretch",
        )


def tile_row(draft: Draft, indices: list[int], origin: Draft | None, editing=None) -> bool:
    """A row of tappable tiles; ``editing`` (editor.panel) is drawn under it when the tile tapped is in it."""
    with st.container(horizontal=True, gap="xsmall", wrap=True):
        for index in indices:
            tile_button(draft, index, origin)
    if editing is not None and st.session_state.selected in indices:
        return editing()
    return False


def summary_in(draft: Draft, lang: str) -> str:
    """The hand's one-line notation with its meld types, face-down tiles and flowers in the page's language: tile
    notation has no words for them."""
    return draft.summary(
        meld_name=lambda meld_type: pick(MELD_NAMES[meld_type.value], lang),
        tile_label=lambda kind: CLASS_NAMES[kind] if kind < N_KINDS else tile_name(kind, lang),
    )


def show(t, lang: str) -> bool:
    """The hand; True when the tapped tile's panel (editor.panel) was drawn under its row."""
    draft: Draft = state.draft()
    origin: Draft | None = st.session_state.origin
    editing = lambda: editor.panel(t, lang)  # noqa: E731
    st.subheader(t("hand_header"))
    st.caption(f"{t('tile_count', n=draft.tile_count)} · `{summary_in(draft, lang)}`")

    st.markdown(f"**{t('concealed')}**")
    shown = tile_row(draft, draft.concealed, origin, editing)
    st.button(t("add_tile"), key="add-tile", on_click=_select, args=("add",))
    if st.session_state.selected == "add":
        shown = editing()

    st.markdown(f"**{t('win_tile')}**")
    if draft.win is not None:
        shown = tile_row(draft, [draft.win], origin, editing) or shown
    else:
        st.caption(t("no_win_tile"))

    if draft.meld_types:
        st.markdown(f"**{t('melds')}**")
        for meld, meld_type in enumerate(draft.meld_types):
            st.caption(f"{t('meld_n', n=meld + 1)} · {pick(MELD_NAMES[meld_type.value], lang)}")
            shown = tile_row(draft, draft.meld_members(meld), origin, editing) or shown

    aside = draft.indices("aside")
    # A toggle, not an expander: a cluttered table can give dozens of such tiles, built only when asked for.
    if aside and st.toggle(f"{t('aside')} ({len(aside)})", key="show-aside"):
        shown = tile_row(draft, aside, origin, editing) or shown

    reading = st.session_state.reading
    if reading is not None and reading.read.warnings and draft == origin:
        with st.expander(t("read_warnings")):
            for warning in reading.read.warnings:
                st.caption(f"`{warning.code}` {explain(warning.code, lang, warning.message)}")
    return shown
