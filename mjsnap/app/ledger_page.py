"""The ledger page: player names, every hand with running totals, next dealer, draws, undo, CSV out and in."""

from __future__ import annotations

import csv

import pandas as pd
import streamlit as st

from mjsnap.app import context_form, state, uploader
from mjsnap.app.i18n import RULESET_NAMES, ledger_problem, pick
from mjsnap.app.ledger import Ledger, LedgerError
from mjsnap.i18n_catalogue import explain

N_SEATS = 4


def _notice(kind: str, text: str) -> None:
    st.session_state.ledger_notice = (kind, text)


def _rename(t, lang: str) -> None:
    names = [st.session_state[f"player-{s}"] for s in range(N_SEATS)]
    try:
        state.set_ledger(state.ledger().rename(names))
    except LedgerError as exc:
        _notice("error", t("ledger_error", detail=ledger_problem(exc, lang)))


def _record_draw(t) -> None:
    ruleset = st.session_state.get("ctx-ruleset", "shaanxi")
    state.set_ledger(state.ledger().record_draw(ruleset=ruleset))
    context_form.start_new_hand()


def _undo() -> None:
    state.set_ledger(state.ledger().undo())
    context_form.start_new_hand()


def _replace(ledger: Ledger) -> None:
    """Put ``ledger`` in place of the current one, which is kept: a clear or an import, a tap away from a whole
    evening's hands, can be taken back (_swap_back)."""
    if state.ledger().hands:
        st.session_state.ledger_replaced = state.ledger()
    state.set_ledger(ledger)
    _show_players(ledger)
    context_form.start_new_hand()


def _show_players(ledger: Ledger) -> None:
    for seat, name in enumerate(ledger.players):
        st.session_state[f"player-{seat}"] = name


def _swap_back() -> None:
    """The replaced ledger back, and the current one kept in its place: pressing again undoes this too."""
    replaced = st.session_state.pop("ledger_replaced", None)
    if replaced is not None:
        _replace(replaced)


def _clear() -> None:
    _replace(Ledger(players=state.ledger().players))


def _import(t, lang: str) -> None:
    uploaded = st.session_state.get("ledger-csv")
    if uploaded is None:
        return
    try:
        ledger = Ledger.from_csv(uploaded.getvalue().decode("utf-8-sig"))
    except UnicodeDecodeError:
        _notice("error", t("bad_csv", detail=explain("csv_not_utf8", lang)))
        return
    except LedgerError as exc:
        _notice("error", t("bad_csv", detail=ledger_problem(exc, lang)))
        return
    except csv.Error as exc:  # the csv module's own refusal, e.g. a field past its size limit: no ledger export
        _notice("error", t("bad_csv", detail=t("csv_malformed", detail=str(exc))))
        return
    _replace(ledger)
    _notice("ok", t("imported", n=len(ledger.hands)))


def _ruleset_name(ruleset: str, lang: str) -> str:
    return pick(RULESET_NAMES.get(ruleset, (ruleset, ruleset)), lang)


def single_ruleset(ledger: Ledger) -> str | None:
    """The rule set of every hand, when they share one: named once above the table instead of in a column, which
    on a phone pushed the players' points out of sight."""
    rulesets = {hand.ruleset for hand in ledger.hands}
    return rulesets.pop() if len(rulesets) == 1 else None


def hands_table(ledger: Ledger, t, lang: str) -> pd.DataFrame:
    rows = []
    one_ruleset = single_ruleset(ledger) is not None
    for hand, totals in zip(ledger.hands, ledger.running()):
        row = {
            t("hand_no"): hand.number,
            **({} if one_ruleset else {t("ruleset"): _ruleset_name(hand.ruleset, lang)}),
            t("dealer"): ledger.players[hand.dealer],
            t("winner"): t("drawn") if hand.drawn else "、".join(ledger.players[w] for w in hand.winners),
        }
        for seat, name in enumerate(ledger.players):
            # a player named like a heading ("庄家") would overwrite that column: name the seat beside it
            column = f"{name} ({t('seat_n', n=seat)})" if name in row else name
            row[column] = f"{hand.deltas[seat]:+d} → {totals[seat]}"
        rows.append(row)
    return pd.DataFrame(rows)


def show(t, lang: str) -> None:
    ledger = state.ledger()
    st.subheader(t("ledger_header"))
    with st.expander(t("players")):
        for seat in range(N_SEATS):
            if f"player-{seat}" not in st.session_state:
                st.session_state[f"player-{seat}"] = ledger.players[seat]
            st.text_input(t("seat_n", n=seat), key=f"player-{seat}")
        st.button(t("rename"), key="rename", on_click=_rename, args=(t, lang))

    st.info(t("next_dealer", name=ledger.players[ledger.dealer()]))
    totals = ledger.totals()
    with st.container(horizontal=True, gap="small", wrap=True):
        for seat, name in enumerate(ledger.players):
            st.metric(name, totals[seat], width=80)  # four in a phone's row (at 90 the fourth wrapped)
    if ledger.hands:
        ruleset = single_ruleset(ledger)
        if ruleset is not None:
            st.caption(t("ledger_ruleset", name=_ruleset_name(ruleset, lang)))
        st.dataframe(hands_table(ledger, t, lang), hide_index=True, width="stretch")
    else:
        st.caption(t("empty_ledger"))

    with st.container(horizontal=True, gap="small", wrap=True):
        st.button(t("record_draw"), key="record-draw", on_click=_record_draw, args=(t,))
        st.button(t("undo"), key="undo", on_click=_undo, disabled=not ledger.hands)
        st.download_button(
            t("export_csv"), ledger.to_csv().encode("utf-8"), file_name="mjsnap-ledger.csv", mime="text/csv",
            key="export-csv",
        )
        st.button(t("clear_ledger"), key="clear-ledger", on_click=_clear, disabled=not ledger.hands)
        replaced = st.session_state.get("ledger_replaced")
        if replaced is not None:
            st.button(t("swap_back_ledger", n=len(replaced.hands)), key="swap-back-ledger", on_click=_swap_back)
    uploader.file_uploader(t, t("import_csv"), ["csv"], "ledger-csv", button="upload_csv_button", on_change=_import,
                           args=(t, lang))
