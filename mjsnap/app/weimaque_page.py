"""安乡偎麻雀 page: lay out a finished hand with card pickers (or type it), read 硬息, 名堂息 and 总息.

The scoring is ``scoring.weimaque``; this page only collects the groups, the context and the switches. The seed
gives no payment rule, so the page shows 息 and says that no settlement follows.
"""

from __future__ import annotations

import streamlit as st

from mjsnap.app.i18n import pick
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

TEXT = {
    "header": ("安乡偎麻雀 · 算息", "Anxiang Weimaque · count 息"),
    "intro": ("摆出胡牌：6句 + 麻雀。团圆、转弯由牌自动判断。",
              "Lay out the winning hand: six 句 and the 麻雀. 团圆 and 转弯 are read off the cards."),
    "use_text": ("用文字输入", "Type the hand instead"),
    "text": ("手牌（如 碰 柒柒柒, 煨 3 3 3, …, 雀 捌捌*）", "Hand (e.g. 碰 柒柒柒, 煨 3 3 3, …, 雀 捌捌*)"),
    "sentence": ("第{n}句", "句 {n}"),
    "pair": ("麻雀", "麻雀 (pair)"),
    "type": ("类型", "type"),
    "card": ("牌", "card"),
    "win_in": ("揭牌胡在", "Won with the 揭 card in"),
    "win_none": ("不指定", "not given"),
    "last_card": ("海底胡（最后一张）", "海底胡 (last card)"),
    "sqs": ("手牵手（需自定息数）", "手牵手 (needs a house value)"),
    "switches": ("规则选择（原文未定）", "Rule switches (left open by the seed)"),
    "order": ("倍数与加息的先后", "multipliers vs additions"),
    "erqishi": ("二七十 / 贰柒拾 算一句", "二七十 / 贰柒拾 is a 句"),
    "mixed": ("大小绞牌（一一壹）算一句", "mixed 大小 句 (一一壹)"),
    "sqs_xi": ("手牵手 自定息数（0 = 不算）", "手牵手 house value (0 = not scored)"),
    "bad_hand": ("手牌有误：{detail}", "The hand is not valid: {detail}"),
    "total": ("总息 {total}", "Total 息: {total}"),
    "hard": ("硬息", "hard 息"),
    "no_win": ("不能胡：{detail}", "No win: {detail}"),
    "item": ("项目", "item"), "kind": ("类", "kind"), "value": ("息", "息"), "why": ("说明", "reason"),
    "decisions": ("规则选择", "switches used"),
    "warnings": ("注意", "note"),
    "settlement": ("原文没有息的结算规则：不计算输赢。", "The seed gives no rule for paying 息: no settlement."),
}
KINDS = {"hard": ("硬息", "hard"), "add": ("名堂", "named"), "multiply": ("倍数", "×"), "house": ("自定", "house")}
ORDERS = {"multiply_then_add": ("先乘后加（硬息×N + 名堂）", "multiply, then add"),
          "add_then_multiply": ("先加后乘（(硬息+名堂)×N）", "add, then multiply")}


def card_label(code: str) -> str:
    card = CARD_BY_CODE[code]
    return f"{'🔴' if card.red else '⚫'} {card.zh} · {code}"


def _pick_cards(index: int, set_type: SetType, lang: str) -> tuple[str, ...]:
    """One picker for a triplet or the pair (the same card repeated), three for a 吃."""
    slots = 3 if set_type is SetType.CHI else 1
    sample = SAMPLE[index][1] if len(SAMPLE[index][1]) == slots else SAMPLE[index][1][:1] * slots
    codes = []
    for slot in range(slots):
        key = f"wmq-card-{index}-{set_type.name}-{slot}"
        if key not in st.session_state:
            st.session_state[key] = sample[slot]
        codes.append(st.selectbox(pick(TEXT["card"], lang), list(CARD_BY_CODE), key=key, format_func=card_label,
                                  label_visibility="collapsed", width=130))
    return tuple(codes)


def picked_groups(lang: str) -> list[tuple[SetType, tuple[str, ...]]]:
    groups = []
    for index in range(len(SAMPLE)):
        with st.container(horizontal=True, gap="small", vertical_alignment="center"):
            if SAMPLE[index][0] is SetType.PAIR:
                st.markdown(f"**{pick(TEXT['pair'], lang)}**", width=90)
                set_type = SetType.PAIR
            else:
                key = f"wmq-type-{index}"
                if key not in st.session_state:
                    st.session_state[key] = SAMPLE[index][0]
                set_type = st.selectbox(pick(TEXT["sentence"], lang).format(n=index + 1), SET_TYPES, key=key,
                                        format_func=lambda t: t.value, width=90)
            groups.append((set_type, _pick_cards(index, set_type, lang)))
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


def options_form(lang: str) -> WeimaqueOptions:
    with st.expander(pick(TEXT["switches"], lang)):
        order = st.radio(pick(TEXT["order"], lang), list(ORDERS), key="wmq-opt-order",
                         format_func=lambda o: pick(ORDERS[o], lang))
        erqishi = st.toggle(pick(TEXT["erqishi"], lang), key="wmq-opt-erqishi")
        mixed = st.toggle(pick(TEXT["mixed"], lang), key="wmq-opt-mixed")
        house = st.number_input(pick(TEXT["sqs_xi"], lang), 0, 1000, step=10, key="wmq-opt-sqs")
    return WeimaqueOptions(multiplier_order=order, erqishi_sets=erqishi, mixed_sets=mixed,
                           shou_qian_shou_xi=house or None)


def show_result(result: WeimaqueResult, lang: str) -> None:
    if result.valid:
        st.success(pick(TEXT["total"], lang).format(total=result.total_xi))
    else:
        st.error(pick(TEXT["no_win"], lang).format(detail=result.error))
    if result.items:
        rows = [{pick(TEXT["item"], lang): item.zh if lang == "zh" else f"{item.zh} · {item.en}",
                 pick(TEXT["kind"], lang): pick(KINDS[item.kind], lang),
                 pick(TEXT["value"], lang): f"×{item.value}" if item.kind == "multiply" else str(item.value),
                 pick(TEXT["why"], lang): item.reason} for item in result.items]
        st.dataframe(rows, hide_index=True)
    if result.hard_xi is not None:
        st.caption(f"{pick(TEXT['hard'], lang)}: {result.hard_xi}")
    for key in ("decisions", "warnings"):
        if getattr(result, key):
            st.caption(f"{pick(TEXT[key], lang)}: {'; '.join(getattr(result, key))}")
    st.info(pick(TEXT["settlement"], lang))


def show(t, lang: str) -> None:
    st.subheader(pick(TEXT["header"], lang))
    st.caption(pick(TEXT["intro"], lang))
    context_flags = {}
    typed = st.toggle(pick(TEXT["use_text"], lang), key="wmq-use-text")
    if typed:
        text = st.text_input(pick(TEXT["text"], lang), key="wmq-text")
    else:
        groups = picked_groups(lang)
        labels = {NO_WIN: pick(TEXT["win_none"], lang)}
        labels.update({i: pick(TEXT["sentence"], lang).format(n=i + 1) for i in range(len(groups) - 1)})
        labels[len(groups) - 1] = pick(TEXT["pair"], lang)
        if "wmq-win" not in st.session_state:
            st.session_state["wmq-win"] = len(groups) - 1  # the sample hand won on its 麻雀 (单吊)
        win_group = st.selectbox(pick(TEXT["win_in"], lang), list(labels), key="wmq-win", format_func=labels.get)
    with st.container(horizontal=True, gap="small"):
        context_flags["last_card"] = st.checkbox(pick(TEXT["last_card"], lang), key="wmq-last")
        context_flags["shou_qian_shou"] = st.checkbox(pick(TEXT["sqs"], lang), key="wmq-sqs")
    context = WeimaqueContext(**context_flags)
    options = options_form(lang)
    try:
        hand = parse_hand(text, context) if typed else build_hand(groups, win_group, context)
    except WeimaqueInputError as exc:
        st.error(pick(TEXT["bad_hand"], lang).format(detail=exc))
        return
    st.code(hand.text(), language=None)
    show_result(score(hand, options), lang)


def sample_hand() -> WeimaqueHand:
    """The page's opening hand (used by the tests to check the page shows what the scorer says)."""
    groups = [(set_type, codes) for set_type, codes in SAMPLE]
    return build_hand(groups, len(SAMPLE) - 1, WeimaqueContext())

