"""The result: shapes, the itemized breakdown (中文 + English, with reasons), the per-seat settlement, and for a
13-tile hand the waits with what each would score. A hand that does not score says why."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from mjsnap.app import context_form, state
from mjsnap.app.i18n import SHAPE_NAMES, ledger_problem, pick
from mjsnap.app.ledger import LedgerError
from mjsnap.app.tables import wrapped
from mjsnap.app.tile_pictures import TILE_SIZE, tile_png
from mjsnap.app.wins import MAX_WINNERS, ScoredWin, combined_deltas, record_wins
from mjsnap.i18n_catalogue import decision, explain, item_note
from scoring.hand import Context
from scoring.result import ScoreResult
from scoring.tiles import kind_of


def shape_text(shapes: list[str], lang: str) -> str:
    return " · ".join(pick(SHAPE_NAMES.get(s, (s, s)), lang) for s in shapes)


def items_table(result: ScoreResult, t, lang: str) -> pd.DataFrame:
    return pd.DataFrame(
        {
            t("item"): [f"{item.zh} · {item.en}" for item in result.items],
            t("value"): [item.value for item in result.items],
            t("why"): [item_note(item.name, lang, item.reason) for item in result.items],
        }
    )


ITEMS_WIDTHS = (112, 56, 186)  # item, value, why: together within a phone's column (356 px inside the border at 390)


def show_items(table: pd.DataFrame, t) -> None:
    """The breakdown: narrow item and value columns, the reason in the rest, wrapped over up to three lines."""
    widths = dict(zip((t("item"), t("value"), t("why")), ITEMS_WIDTHS))
    st.dataframe(table, hide_index=True, width="stretch", **wrapped(widths))


def _seats(winners: set[int], context: Context, t) -> dict[str, list]:
    """The columns every settlement starts with: seat, player, role, bet."""
    roles = []
    for seat in range(4):
        role = []
        if seat in winners:
            role.append(t("role_winner"))
        if seat == context.dealer:
            role.append(t("role_dealer"))
        if seat == context.discarder:
            role.append(t("role_discarder"))
        roles.append(" ".join(role))
    return {
        t("seat"): list(range(4)),
        t("player"): list(state.ledger().players),
        t("role"): roles,
        t("bet"): list(context.bets),
    }


def settlement_table(result: ScoreResult, context: Context, t) -> pd.DataFrame:
    return pd.DataFrame({**_seats({context.winner}, context, t), t("points"): result.deltas})


def combined_settlement_table(wins: tuple[ScoredWin, ...], t) -> pd.DataFrame:
    """一炮多响: each winner's own settlement, then the hand's as it goes into the ledger (LedgerError when the
    wins cannot share the discard)."""
    together = combined_deltas(wins)
    players = state.ledger().players
    table = _seats({w.context.winner for w in wins}, wins[-1].context, t)
    for win in wins:
        table[t("win_of", name=players[win.context.winner])] = win.result.deltas
    table[t("points_together")] = list(together)
    return pd.DataFrame(table)


def show_settlement(win: ScoredWin, t, lang: str) -> None:
    """The winner's settlement; with kept winners of the same discard, the whole discard's."""
    pending: tuple[ScoredWin, ...] = st.session_state.pending_wins
    if pending:
        try:
            table = combined_settlement_table(pending + (win,), t)
        except LedgerError as exc:
            st.warning(t("ledger_error", detail=ledger_problem(exc, lang)))
        else:
            st.markdown(f"**{t('settlement_together', n=len(pending) + 1)}**")
            st.dataframe(table, hide_index=True, width="stretch")
            return
    st.markdown(f"**{t('settlement')}**")
    st.dataframe(settlement_table(win.result, win.context, t), hide_index=True, width="stretch")


def _add_to_ledger(t, lang: str) -> None:
    """The last win (with the wins waiting on the same discard) goes into the ledger as one hand."""
    wins = st.session_state.pending_wins + (st.session_state.last_result,)
    try:
        ledger = record_wins(state.ledger(), wins)
    except LedgerError as exc:
        st.session_state.ledger_notice = ("error", t("ledger_error", detail=ledger_problem(exc, lang)))
        return
    state.set_ledger(ledger)
    st.session_state.last_result = None
    st.session_state.pending_wins = ()
    st.session_state.recorded = (state.draft(), len(ledger.hands))
    st.session_state.ledger_notice = ("ok", t("added_to_ledger", n=len(ledger.hands)))
    context_form.start_new_hand()


def _another_winner(t) -> None:
    """一炮多响: keep this win and score the next winner's hand on the same discard."""
    win: ScoredWin = st.session_state.last_result
    st.session_state.pending_wins += (win,)
    st.session_state.last_result = None
    taken = {w.context.winner for w in st.session_state.pending_wins} | {win.context.discarder}
    st.session_state["ctx-winner"] = next(s for s in range(4) if s not in taken)
    name = state.ledger().players[win.context.winner]
    st.session_state.ledger_notice = ("ok", t("winner_kept", name=name))


def _drop_pending() -> None:
    st.session_state.pending_wins = ()


def show_pending(t) -> None:
    """The wins of a 一炮多响 waiting for the next winner's hand, with a way out."""
    pending: tuple[ScoredWin, ...] = st.session_state.pending_wins
    if not pending:
        return
    players = state.ledger().players
    names = "、".join(players[w.context.winner] for w in pending)
    with st.container(horizontal=True, vertical_alignment="center", gap="small", wrap=True):
        st.info(t("multi_win_pending", names=names, discarder=players[pending[0].context.discarder]))
        st.button(t("multi_win_cancel"), key="multi-win-cancel", on_click=_drop_pending)


def ledger_buttons(win: ScoredWin, t, lang: str) -> None:
    """Add the hand to the ledger; on a Weinan discard also "another winner on this discard" (一炮多响)."""
    st.session_state.last_result = win
    winners = len(st.session_state.pending_wins) + 1
    label = t("add_to_ledger") if winners == 1 else t("add_multi_win", n=winners)
    with st.container(horizontal=True, gap="small", wrap=True):
        st.button(label, key="add-to-ledger", type="primary", on_click=_add_to_ledger, args=(t, lang))
        if win.can_share_discard and winners < MAX_WINNERS:
            st.button(t("another_winner"), key="another-winner", on_click=_another_winner, args=(t,))


def recorded_hand() -> int | None:
    """The ledger's number of the hand on the page when it has just gone into the ledger (the same tiles, the hand
    not undone); None otherwise."""
    recorded = st.session_state.recorded
    if recorded is None:
        return None
    draft, number = recorded
    if draft is state.draft() and len(state.ledger().hands) == number:
        return number
    st.session_state.recorded = None
    return None


def show_recorded(number: int, t) -> None:
    """Said where the result was, beside the button just tapped (the page's own notice is a screen above on a
    phone). The score is not shown again: the dealer and bets are the next hand's by now, so it would differ from
    the one recorded, and a second tap recorded the hand twice."""
    st.subheader(t("result_header"))
    st.success(t("recorded_here", n=number))
    st.caption(t("recorded_next"))


def show_result(win: ScoredWin, t, lang: str) -> None:
    result, context = win.result, win.context
    number = recorded_hand()
    if number is not None:
        show_recorded(number, t)
        return
    st.subheader(t("result_header"))
    if not result.valid:
        st.error(t("not_a_win", detail=explain(result.reason, lang, result.error)))
        if result.shapes:
            st.caption(f"{t('shapes')}: {shape_text(result.shapes, lang)}")
        return
    st.markdown(f"**{t('shapes')}:** {shape_text(result.shapes, lang)}")
    winner_points = result.deltas[context.winner]
    headline = t("winner_gets", name=state.ledger().players[context.winner], points=f"{winner_points:+d}")
    if result.fan is not None:
        headline += " · " + t("total_fan", fan=result.fan)
    st.success(headline)
    show_items(items_table(result, t, lang), t)
    show_settlement(win, t, lang)
    if result.decisions:
        st.caption(t("decisions", items="; ".join(decision(d, lang) for d in result.decisions)))
    if result.warnings:
        notes = (explain(code, lang, text) for code, text in zip(result.warning_codes, result.warnings))
        st.warning(t("warnings", items="; ".join(notes)))
    ledger_buttons(win, t, lang)


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
                    st.caption(t("wait_not_allowed", detail=explain(result.reason, lang, result.error)))

