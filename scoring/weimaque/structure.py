"""和牌条件 2 and 3: six complete 句 of three cards and one 麻雀 (two identical cards), 20 cards in all.

A 碰/煨/砍 is three identical cards. A 吃 is a run of three consecutive numbers in one case (柒捌玖); 二七十 /
贰柒拾 and 绞 句 (one number in both cases: 一一壹) count only when their switch allows them
(``weimaque.erqishi_sets`` / ``weimaque.mixed_sets``), and the result names the switch when such a 句 appears.
"""

from __future__ import annotations

from scoring.weimaque.cards import Card, format_cards
from scoring.weimaque.hand import Group
from scoring.weimaque.situation import NotAWin, XiSituation

N_SETS = 6
RUN, ERQISHI, MIXED, TRIPLET = "run", "erqishi", "mixed", "triplet"
FORM_SWITCH = {ERQISHI: "erqishi_sets", MIXED: "mixed_sets"}
FORM_NAMES = {ERQISHI: "二七十 / 贰柒拾", MIXED: "绞 (one number in both 大写 and 小写)"}


def sentence_form(cards: tuple[Card, ...]) -> str | None:
    """The form of a three-card 句: run, erqishi, mixed, triplet; None when it is no 句 at all."""
    if len(cards) != 3:
        return None
    numbers = sorted(card.number for card in cards)
    if len({card.big for card in cards}) == 1:
        if len(set(cards)) == 1:
            return TRIPLET
        if numbers == [numbers[0], numbers[0] + 1, numbers[0] + 2]:
            return RUN
        return ERQISHI if numbers == [2, 7, 10] else None
    return MIXED if len(set(numbers)) == 1 else None


def check_structure(sit: XiSituation) -> None:
    """Raise NotAWin unless the hand is 6 句 + 1 麻雀 of valid forms under the options."""
    hand = sit.hand
    sets, pairs = hand.sets, hand.pairs
    if len(sets) != N_SETS or len(pairs) != 1:
        raise NotAWin(
            "wrong_set_count",
            f"a win needs 6 句 and 1 麻雀 (有6句完整的话 + 麻雀); got {len(sets)} 句 and {len(pairs)} 麻雀",
        )
    check_pair(pairs[0])
    for number, group in enumerate(sets, 1):
        check_sentence(sit, group, number)


def check_pair(group: Group) -> None:
    if len(group.cards) != 2 or group.cards[0] != group.cards[1]:
        raise NotAWin("bad_set", f"麻雀 {format_cards(group.cards)}: the 麻雀 is two identical cards")


def check_sentence(sit: XiSituation, group: Group, number: int) -> None:
    label = f"句 {number} ({group.type.value} {format_cards(group.cards)})"
    if len(group.cards) != 3:
        raise NotAWin("bad_set", f"{label}: a 句 is three cards, got {len(group.cards)}")
    form = sentence_form(group.cards)
    if group.type.is_triplet:
        if form != TRIPLET:
            raise NotAWin("bad_set", f"{label}: {group.type.value} is three identical cards")
        return
    if form == TRIPLET:
        raise NotAWin("bad_set", f"{label}: three identical cards are a 碰, 煨 or 砍, not a 吃")
    if form is None:
        raise NotAWin("bad_set", f"{label}: not a 句; a 吃 is three consecutive numbers of one case (柒捌玖), "
                                 f"大字只能吃大字，小字只能吃小字")
    switch = FORM_SWITCH.get(form)
    if switch is not None:
        sit.decide(switch)
        if not getattr(sit.options, switch):
            raise NotAWin("set_form_not_allowed", f"{label}: {FORM_NAMES[form]} is not a 句 under "
                                                   f"{sit.options.describe(switch)} (the seed does not define it)")
