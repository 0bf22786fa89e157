"""The result: shapes, the itemized breakdown (中文 + English, with reasons), the per-seat settlement, and for a
13-tile hand the waits with what each would score. A hand that does not score says why."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from mjsnap.app import context_form, state
from mjsnap.app.i18n import SHAPE_NAMES, pick
from mjsnap.app.ledger import LedgerError
from mjsnap.app.tile_pictures import TILE_SIZE, tile_png
from scoring.hand import Context
from scoring.result import ScoreResult
from scoring.tiles import kind_of


def shape_text(shapes: list[str], lang: str) -> str:
    return " · ".join(pick(SHAPE_NAMES.get(s, (s, s)), lang) for s in shapes)


def items_table(result: ScoreResult, t) -> pd.DataFrame:
    return pd.DataFrame(
        {
            t("item"): [f"{item.zh} · {item.en}" for item in result.items],
            t("value"): [item.value for item in result.items],
            t("why"): [item.reason for item in result.items],
        }
    )


def settlement_table(result: ScoreResult, context: Context, t) -> pd.DataFrame:
    players = state.ledger().players
    roles = []
    for seat in range(4):
        role = []
        if seat == context.winner:
            role.append(t("role_winner"))
        if seat == context.dealer:
            role.append(t("role_dealer"))
        if seat == context.discarder:
            role.append(t("role_discarder"))
        roles.append(" ".join(role))
    return pd.DataFrame(
        {
            t("seat"): list(range(4)),
            t("player"): list(players),
            t("role"): roles,
            t("bet"): list(context.bets),
            t("points"): result.deltas,
        }
    )


def _add_to_ledger(t) -> None:
    ruleset, context, result, summary = st.session_state.last_result
    try:
        ledger = state.ledger().record(
            ruleset=ruleset,
            winner=context.winner,
            dealer=context.dealer,
            self_draw=context.is_self_draw,
            discarder=None if context.is_self_draw else context.discarder,
            bets=context.bets,
            deltas=result.deltas,
            tiles=summary,
        )
    except LedgerError as exc:
        st.session_state.ledger_notice = ("error", t("ledger_error", detail=str(exc)))
        return
    state.set_ledger(ledger)
    st.session_state.last_result = None
    st.session_state.ledger_notice = ("ok", t("added_to_ledger", n=len(ledger.hands)))
    context_form.start_new_hand()


def show_result(result: ScoreResult, ruleset: str, context: Context, summary: str, t, lang: str) -> None:
    st.subheader(t("result_header"))
    if not result.valid:
        st.error(t("not_a_win", detail=result.error or result.reason or "?"))
        if result.shapes:
            st.caption(f"{t('shapes')}: {shape_text(result.shapes, lang)}")
        return
    st.markdown(f"**{t('shapes')}:** {shape_text(result.shapes, lang)}")
    winner_points = result.deltas[context.winner]
    headline = t("winner_gets", name=state.ledger().players[context.winner], points=f"{winner_points:+d}")
    if result.fan is not None:
        headline += " · " + t("total_fan", fan=result.fan)
    st.success(headline)
    st.dataframe(items_table(result, t), hide_index=True, width="stretch")
    st.markdown(f"**{t('settlement')}**")
    st.dataframe(settlement_table(result, context, t), hide_index=True, width="stretch")
    if result.decisions:
        st.caption(t("decisions", items="; ".join(result.decisions)))
    if result.warnings:
        st.warning(t("warnings", items="; ".join(result.warnings)))
    st.session_state.last_result = (ruleset, context, result, summary)
    st.button(t("add_to_ledger"), key="add-to-ledger", type="primary", on_click=_add_to_ledger, args=(t,))


def show_waits(entries: list[dict], context: Context, t, lang: str) -> None:
    st.subheader(t("waits_header"))
    if not entries:
        st.info(t("no_waits"))
        return
    name = state.ledger().players[context.winner]
    with st.container(horizontal=True, gap="medium", wrap=True):
        for entry in entries:
            result: ScoreResult = entry["result"]
            with st.container(width=140, gap=None):
                st.image(tile_png(kind_of(entry["tile"])), width=TILE_SIZE[0])
                if result.valid:
                    points = f"{result.deltas[context.winner]:+d}"
                    fan = f" ({t('total_fan', fan=result.fan)})" if result.fan is not None else ""
                    st.markdown(t("wait_scores", name=name, points=points) + fan)
                    st.caption(shape_text(result.shapes, lang))
                else:
                    st.caption(t("wait_not_allowed", detail=result.error or result.reason or "?"))

