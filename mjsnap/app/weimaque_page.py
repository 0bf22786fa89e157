"""安乡偎麻雀 page: lay out a finished hand with card pickers (or type it), read 硬息, 名堂息 and 总息.

The scoring is ``scoring.weimaque``; this page only collects the groups, the context and the switches. The seed
gives no payment rule, so the page shows 息 and says that no settlement follows.
"""

from __future__ import annotations

import streamlit as st

from mjsnap.app.i18n import XI_KINDS, XI_ORDERS, pick, weimaque_decision
from mjsnap.app.tables import wrapped
from mjsnap.i18n_catalogue import WEIMAQUE_CODES, WEIMAQUE_ITEM_NOTES, explain
from scoring.weimaque import (
    ALL_CARDS, Group, SetType, WeimaqueContext, WeimaqueHand, WeimaqueInputError, WeimaqueOptions, WeimaqueResult,
    parse_hand, score,
)

# The seed's own example shape: 6 句 + 麻雀 (碰柒 团圆, 煨三 团圆, 砍十, 转弯 捌捌).
SAMPLE: tuple[tuple[SetType, tuple[str, ...]], ...] = (
    (SetType.PENG, ("7B",)), (SetType.WEI, ("3",)), (SetType.KAN, ("10",)),
    (SetType.CHI, ("7B", "8B", "9B")), (SetType.CHI, ("1", "2", "3")), (SetType.CHI, ("4", "5", "6")),
    (SetType.PAIR, ("8B",)),
)
SET_TYPES = (SetType.PENG, SetType.WEI, SetType.KAN, SetType.CHI)
CARD_BY_CODE = {card.code: card for card in ALL_CARDS}
NO_WIN = -1


def card_label(code: str) -> str:
    card = CARD_BY_CODE[code]
    return f"{'🔴' if card.red else '⚫'} {card.zh} · {code}"


def _pick_cards(index: int, set_type: SetType, t) -> tuple[str, ...]:
    """One picker for a triplet or the pair (the same card repeated), three for a 吃."""
    slots = 3 if set_type is SetType.CHI else 1
    sample = SAMPLE[index][1] if len(SAMPLE[index][1]) == slots else SAMPLE[index][1][:1] * slots
    codes = []
    for slot in range(slots):
        key = f"wmq-card-{index}-{set_type.name}-{slot}"
        if key not in st.session_state:
            st.session_state[key] = sample[slot]
        codes.append(st.selectbox(t("wmq_card"), list(CARD_BY_CODE), key=key, format_func=card_label,
                                  label_visibility="collapsed", width=130))
    return tuple(codes)


def picked_groups(t) -> list[tuple[SetType, tuple[str, ...]]]:
    groups = []
    for index in range(len(SAMPLE)):
        with st.container(horizontal=True, gap="small", vertical_alignment="center"):
            if SAMPLE[index][0] is SetType.PAIR:
                st.markdown(f"**{t('wmq_pair')}**", width=90)
                set_type = SetType.PAIR
            else:
                key = f"wmq-type-{index}"
                if key not in st.session_state:
                    st.session_state[key] = SAMPLE[index][0]
                set_type = st.selectbox(t("wmq_sentence", n=index + 1), SET_TYPES, key=key,
                                        format_func=lambda set_type: set_type.value, width=90)
            groups.append((set_type, _pick_cards(index, set_type, t)))
    return groups


def build_hand(groups: list[tuple[SetType, tuple[str, ...]]], win_group: int, context: WeimaqueContext
               ) -> WeimaqueHand:
    """The picked groups as a hand; a triplet picker stands for three copies, the pair picker for two."""
    built = []
    for index, (set_type, codes) in enumerate(groups):
        cards = tuple(CARD_BY_CODE[c] for c in codes)
        if len(cards) == 1:
            cards = cards * (2 if set_type is SetType.PAIR else 3)
        built.append(Group(set_type, cards, 0 if index == win_group else None))
    return WeimaqueHand(tuple(built), context)


def options_form(t, lang: str) -> WeimaqueOptions:
    with st.expander(t("wmq_switches")):
        order = st.radio(t("wmq_order"), list(XI_ORDERS), key="wmq-opt-order",
                         format_func=lambda o: pick(XI_ORDERS[o], lang))
        erqishi = st.toggle(t("wmq_erqishi"), key="wmq-opt-erqishi")
        mixed = st.toggle(t("wmq_mixed"), key="wmq-opt-mixed")
        house = st.number_input(t("wmq_sqs_xi"), 0, 1000, step=10, key="wmq-opt-sqs")
    return WeimaqueOptions(multiplier_order=order, erqishi_sets=erqishi, mixed_sets=mixed,
                           shou_qian_shou_xi=house or None)


def input_problem(exc: WeimaqueInputError, t, lang: str) -> str:
    """Why the hand cannot be read: the parser's own sentence in English; in Chinese the code's, with the token."""
    if lang == "en":
        return str(exc)
    text = explain(exc.code, lang, str(exc), WEIMAQUE_CODES)
    return t("wmq_at", detail=text, token=exc.token) if exc.token else text


# English items and reasons are long: at one line a row the table ran past a phone's screen (624 px in 358). The
# 中文 ones fit as they are.
EN_WIDTHS = (100, 60, 40, 156)  # item, kind, 息, reason: within a phone's column (356 px inside the border)


def table_layout(t, lang: str) -> dict:
    """The 息 table's row height and column widths for ``lang`` (none: Streamlit's own)."""
    if lang != "en":
        return {}
    return wrapped(dict(zip((t(key) for key in ("wmq_item", "wmq_kind", "wmq_value", "wmq_why")), EN_WIDTHS)))


def show_result(result: WeimaqueResult, t, lang: str) -> None:
    if result.valid:
        st.success(t("wmq_total", total=result.total_xi))
    else:
        st.error(t("wmq_no_win", detail=explain(result.reason, lang, result.error, WEIMAQUE_CODES)))
    if result.items:
        rows = [{t("wmq_item"): item.zh if lang == "zh" else f"{item.zh} · {item.en}",
                 t("wmq_kind"): pick(XI_KINDS[item.kind], lang),
                 t("wmq_value"): f"×{item.value}" if item.kind == "multiply" else str(item.value),
                 t("wmq_why"): item.reason if lang == "en" else pick(WEIMAQUE_ITEM_NOTES[item.name], lang)}
                for item in result.items]
        st.dataframe(rows, hide_index=True, **table_layout(t, lang))
    if result.hard_xi is not None:
        st.caption(t("wmq_line", label=t("wmq_hard"), text=result.hard_xi))
    if result.decisions:
        decisions = t("wmq_sep").join(weimaque_decision(d, lang) for d in result.decisions)
        st.caption(t("wmq_line", label=t("wmq_decisions"), text=decisions))
    if result.warnings:
        notes = (explain(code, lang, text, WEIMAQUE_CODES) for code, text in zip(result.warning_codes, result.warnings))
        st.caption(t("wmq_line", label=t("wmq_warnings"), text=t("wmq_sep").join(notes)))
    st.info(t("wmq_settlement"))


def show(t, lang: str) -> None:
    st.subheader(t("wmq_header"))
    st.caption(t("wmq_intro"))
    context_flags = {}
    typed = st.toggle(t("wmq_use_text"), key="wmq-use-text")
    if typed:
        text = st.text_input(t("wmq_text"), key="wmq-text")
    else:
        groups = picked_groups(t)
        labels = {NO_WIN: t("wmq_win_none")}
        labels.update({i: t("wmq_sentence", n=i + 1) for i in range(len(groups) - 1)})
        labels[len(groups) - 1] = t("wmq_pair")
        if "wmq-win" not in st.session_state:
            st.session_state["wmq-win"] = len(groups) - 1  # the sample hand won on its 麻雀 (单吊)
        win_group = st.selectbox(t("wmq_win_in"), list(labels), key="wmq-win", format_func=labels.get)
    with st.container(horizontal=True, gap="small"):
        context_flags["last_card"] = st.checkbox(t("wmq_last_card"), key="wmq-last")
        context_flags["shou_qian_shou"] = st.checkbox(t("wmq_sqs"), key="wmq-sqs")
    context = WeimaqueContext(**context_flags)
    options = options_form(t, lang)
    try:
        hand = parse_hand(text, context) if typed else build_hand(groups, win_group, context)
    except WeimaqueInputError as exc:
        st.error(t("wmq_bad_hand", detail=input_problem(exc, t, lang)))
        return
    st.code(hand.text(), language=None, wrap_lines=True)  # not cut off at a phone's width
    show_result(score(hand, options), t, lang)


def sample_hand() -> WeimaqueHand:
    """The page's opening hand (used by the tests to check the page shows what the scorer says)."""
    groups = [(set_type, codes) for set_type, codes in SAMPLE]
    return build_hand(groups, len(SAMPLE) - 1, WeimaqueContext())

