"""Fixing the read hand: the tile picker (34 faces + back) and the moves for the tapped tile and the melds.

Each edit replaces the draft and saves the photo's label at once (corrections.save_current).
"""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from mjsnap.app import corrections, state
from mjsnap.app.context_form import seat_label
from mjsnap.app.draft import Draft
from mjsnap.app.i18n import MELD_NAMES, label_problem, pick, tile_name
from mjsnap.app.tile_pictures import TILE_SIZE, tile_png
from scoring.hand import N_SEATS, MeldType
from scoring.tiles import BACK, CLASS_NAMES, N_KINDS, ZH_NAMES

PICKER_ROWS = (range(0, 9), range(9, 18), range(18, 27), range(27, BACK + 1))


def apply(edit: Callable[[Draft], Draft], *, deselect: bool = True) -> None:
    """Run one edit on the draft, keep the result and save the label; a refused edit is shown, not raised."""
    try:
        new = edit(state.draft())
    except (IndexError, ValueError) as exc:
        st.session_state.edit_error = str(exc)
        return
    st.session_state.edit_error = None
    state.set_draft(new)
    if deselect:
        st.session_state.selected = None
    corrections.save_current()


def _picked(kind: int) -> None:
    selected = st.session_state.selected
    if selected == "add":
        apply(lambda d: d.add(kind))
    elif isinstance(selected, int):
        apply(lambda d: d.set_kind(selected, kind))


def face_label(kind: int, lang: str) -> str:
    """A face button's word: a suited tile's notation (5m), under its picture; on a 中文 page an honour's own
    character and 牌背, where the notation says E, S, W... and "back" in English."""
    if lang == "en" or kind < 27:
        return CLASS_NAMES[kind]
    return ZH_NAMES[kind] if kind < N_KINDS else tile_name(kind, lang)


def picker(t, lang: str, likely: tuple[int, ...] = ()) -> None:
    """The face picker; ``likely`` (the classifier's next guesses for the tapped tile) come first, in a row."""
    label = lambda kind: face_label(kind, lang)  # noqa: E731
    if likely:
        st.caption(t("likely_faces"))
        tile_buttons(lang, "likely-", label, _picked, lambda kind: (kind,), rows=(likely,))
    st.caption(t("pick_face"))
    tile_buttons(lang, "pick-", label, _picked, lambda kind: (kind,))


FACE_BUTTONS = '[class*="tile-faces-"]'  # tile_buttons' rows: a keyed container has the class st-key-KEY


def tile_buttons(lang: str, key: str, label: Callable[[int], str], on_click: Callable, args: Callable[[int], tuple],
                 rows=PICKER_ROWS) -> None:
    """The 34 faces and `back` (or the kinds of ``rows``) as rows of tile pictures, a button under each (the score
    page's editor and the label page); button `kind` is keyed f"{key}{kind}" and calls on_click(*args(kind))."""
    # a button is as wide as its picture: Streamlit's own side padding left "1m" no room and broke it over two lines
    st.html(f"<style>{FACE_BUTTONS} button {{padding-left: 2px; padding-right: 2px}}</style>")
    for number, row in enumerate(rows):
        with st.container(horizontal=True, gap="xsmall", wrap=True, key=f"{key}tile-faces-{number}"):
            for kind in row:
                with st.container(width=TILE_SIZE[0] + 4, gap=None, horizontal_alignment="center"):
                    st.image(tile_png(kind), width=TILE_SIZE[0])
                    st.button(label(kind), key=f"{key}{kind}", on_click=on_click, args=args(kind),
                              help=tile_name(kind, lang), width="stretch")


def _actions(draft: Draft, index: int, t) -> None:
    tile = draft.tiles[index]
    with st.container(horizontal=True, gap="small", wrap=True):
        if tile.place != "win":
            st.button(t("make_win"), key="act-win", on_click=apply, args=(lambda d: d.set_win(index),))
        if tile.place != "hand":
            st.button(t("to_concealed"), key="act-hand", on_click=apply, args=(lambda d: d.to_hand(index),))
        for meld in range(len(draft.meld_types)):
            if not (tile.place == "meld" and tile.meld == meld):
                st.button(
                    t("to_meld", n=meld + 1),
                    key=f"act-meld-{meld}",
                    on_click=apply,
                    args=(lambda d, m=meld: d.to_meld(index, m),),
                )
        st.button(
            t("to_new_meld"), key="act-new-meld", on_click=apply,
            args=(lambda d: d.new_meld([index], MeldType.PUNG),),
        )
        if tile.place != "aside":
            st.button(t("set_aside"), key="act-aside", on_click=apply, args=(lambda d: d.set_aside(index),))
        st.button(t("delete"), key="act-delete", on_click=apply, args=(lambda d: d.delete(index),))
        st.button(t("done"), key="act-done", type="primary", on_click=lambda: st.session_state.update(selected=None))


def _set_meld_type(meld: int) -> None:
    apply(lambda d: d.set_meld_type(meld, MeldType(st.session_state[f"meld-type-{meld}"])), deselect=False)


def _set_feeder(meld: int) -> None:
    apply(lambda d: d.set_feeder(meld, st.session_state[f"meld-from-{meld}"]), deselect=False)


def meld_controls(draft: Draft, t, lang: str) -> None:
    """Type and break-up controls for each meld; an exposed kong also asks who fed it (a photo cannot show it)."""
    types = [m.value for m in MeldType]
    seat_name = seat_label(state.ledger().players)
    for meld, meld_type in enumerate(draft.meld_types):
        key = f"meld-type-{meld}"
        st.session_state[key] = meld_type.value  # follow the draft (melds renumber when one is broken up)
        with st.container(horizontal=True, vertical_alignment="bottom", gap="small", wrap=True):
            st.selectbox(
                f"{t('meld_n', n=meld + 1)} · {t('meld_type')}",
                types,
                key=key,
                format_func=lambda v: pick(MELD_NAMES[v], lang),
                on_change=_set_meld_type,
                args=(meld,),
                width=200,
            )
            if meld_type is MeldType.KONG_EXPOSED:
                st.session_state[f"meld-from-{meld}"] = draft.meld_feeders[meld]
                st.selectbox(t("kong_fed_by"), list(range(N_SEATS)), key=f"meld-from-{meld}", format_func=seat_name,
                             placeholder=t("pick_seat"), on_change=_set_feeder, args=(meld,), width=200)
            st.button(t("break_meld"), key=f"break-{meld}", on_click=apply, args=(lambda d, m=meld: d.break_meld(m),))


def panel(t, lang: str) -> bool:
    """The moves and the face picker of the tapped tile (or of the tile being added); False when none is tapped.
    hand_view draws it right under the row of the tile tapped: below the whole hand, a phone showed it a screen or
    two away from the tap, and nothing seemed to happen."""
    draft: Draft = state.draft()
    selected = st.session_state.selected
    if isinstance(selected, int) and selected < len(draft.tiles):
        with st.container(border=True):
            tile = draft.tiles[selected]
            st.markdown(t("editing", n=selected + 1, name=tile_name(tile.kind, lang)))
            _actions(draft, selected, t)
            picker(t, lang, tuple(k for k in tile.choices if k != tile.kind))
        return True
    if selected == "add":
        with st.container(border=True):
            st.markdown(t("adding", where=t("concealed")))
            picker(t, lang)
            st.button(t("done"), key="add-done", on_click=lambda: st.session_state.update(selected=None))
        return True
    return False


def show(t, lang: str, panel_shown: bool = False) -> None:
    """The meld controls and the hand's buttons; the tapped tile's panel too where hand_view did not draw it (a
    tile of a row not shown)."""
    draft: Draft = state.draft()
    if not panel_shown:
        panel(t, lang)
    if st.session_state.get("edit_error"):
        st.error(st.session_state.edit_error)
    if draft.meld_types:
        meld_controls(draft, t, lang)
    with st.container(horizontal=True, gap="small", wrap=True):
        if draft.win is not None:
            st.button(t("no_win_clear"), key="clear-win", on_click=apply, args=(lambda d: d.set_aside(d.win),))
        origin = st.session_state.origin
        if origin is not None and draft != origin:
            st.button(t("reset_hand"), key="reset-hand", on_click=apply, args=(lambda d: origin,))
    if st.session_state.saved_label:
        path, review = st.session_state.saved_label
        st.caption(t("label_saved", path=path))
        if review:
            st.warning(t("label_review", n=len(draft.unboxed), folder=corrections.labels_dir() / "images" / "review"))
    if st.session_state.label_error:
        st.warning(t("label_failed", detail=label_problem(st.session_state.label_error, lang)))
