"""The app's frame: page setup, a compact header with the language switch (a phone shows it in one line), and
navigation between the pages."""

from __future__ import annotations

import streamlit as st

from mjsnap.app import dice_page, label_page, ledger_page, score_page, state, weimaque_page
from mjsnap.app.i18n import LANG_LABELS, LANGS, tr

PAGES = {
    "score": score_page.show, "ledger": ledger_page.show, "dice": dice_page.show, "weimaque": weimaque_page.show,
    "label": label_page.show,
}


def run() -> None:
    st.set_page_config(page_title="mjsnap", page_icon="🀄", layout="centered")
    state.init()
    state.keep_inputs()
    with st.container(horizontal=True, vertical_alignment="center", gap="small", wrap=True):
        st.markdown(f"### {tr(state.lang())('app_title')}", width="content")
        st.radio(
            "Language", LANGS, key="lang", format_func=LANG_LABELS.get, horizontal=True,
            label_visibility="collapsed", width="content", on_change=state.show_inputs,
        )
    lang = state.lang()
    t = tr(lang)
    st.radio(
        "page", list(PAGES), key="page", horizontal=True, label_visibility="collapsed",
        format_func=lambda p: t(f"nav_{p}"), on_change=state.show_inputs,
    )
    # drawn on every run, filled or not: a notice coming and going moved everything after it, and Streamlit draws a
    # moved section anew, closed (the one just opened shut on the next tap)
    notice_slot = st.empty()
    notice = st.session_state.ledger_notice
    if notice:
        (notice_slot.success if notice[0] == "ok" else notice_slot.error)(notice[1])
        st.session_state.ledger_notice = None
    PAGES[st.session_state.page](t, lang)
