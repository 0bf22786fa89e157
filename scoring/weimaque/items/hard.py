"""硬息 (字面息, 牌面息), the seed's table: 碰 black 2 / red 3; 煨 black 3 / red 4; 砍 (not broken) = 煨; 吃 0;
麻雀 red 2 / black 0; 转弯 (the 麻雀's card also in another 句) black 2 / red 3 instead; 团圆 (the 4th copy of a
碰/煨/砍 elsewhere in the hand) +3 black / +4 red on top of the 碰/煨. A win needs at least 10."""

from __future__ import annotations

from scoring.weimaque.cards import format_cards
from scoring.weimaque.hand import Group, SetType
from scoring.weimaque.items.base import ColouredXi
from scoring.weimaque.result import XiItem
from scoring.weimaque.situation import XiSituation

MIN_HARD_XI = 10


def colour(red: bool) -> str:
    return "red" if red else "black"


class PengXi(ColouredXi):
    name = "碰"
    en = "claimed triplet"
    kind = "hard"
    black, red = 2, 3

    def evaluate(self, group: Group) -> XiItem:
        card = group.cards[0]
        return self.make(self.value_for(card.red), f"碰 {format_cards(group.cards)} ({colour(card.red)})")


class WeiXi(ColouredXi):
    name = "煨"
    en = "self-revealed triplet"
    kind = "hard"
    black, red = 3, 4

    def evaluate(self, group: Group) -> XiItem:
        card = group.cards[0]
        return self.make(self.value_for(card.red), f"煨 {format_cards(group.cards)} ({colour(card.red)})")


class KanXi(ColouredXi):
    name = "砍"
    en = "dealt triplet (counts as 煨)"
    kind = "hard"
    black, red = WeiXi.black, WeiXi.red

    def evaluate(self, group: Group) -> XiItem:
        card = group.cards[0]
        return self.make(self.value_for(card.red),
                         f"砍 {format_cards(group.cards)} ({colour(card.red)}); 砍没有拆，和牌时等同于煨")


class TuanYuanXi(ColouredXi):
    name = "团圆"
    en = "all four copies"
    kind = "hard"
    black, red = 3, 4

    def evaluate(self, sit: XiSituation, group: Group) -> XiItem | None:
        card = group.cards[0]
        if card not in sit.tuanyuan:
            return None
        return self.make(self.value_for(card.red),
                         f"all four {card.zh}, three as the {group.type.value} ({colour(card.red)}, on top of it)")


class MaQueXi(ColouredXi):
    name = "麻雀"
    en = "pair"
    kind = "hard"
    black, red = 0, 2

    def evaluate(self, group: Group) -> XiItem | None:
        card = group.cards[0]
        if not card.red:
            return None
        return self.make(self.red, f"red 麻雀 {format_cards(group.cards)}")


class ZhuanWanXi(ColouredXi):
    name = "转弯"
    en = "pair card also in another set"
    kind = "hard"
    black, red = 2, 3

    def evaluate(self, sit: XiSituation) -> XiItem | None:
        card = sit.pair.cards[0]
        if sit.hand.count(card) <= 2:
            return None
        return self.make(self.value_for(card.red),
                         f"麻雀 {card.zh}{card.zh} with {card.zh} also in another 句 ({colour(card.red)} 麻雀)")


def hard_items(sit: XiSituation) -> list[XiItem]:
    """Every hard item, in the order of the hand's groups; a 吃 adds nothing (吃的不算息)."""
    by_type = {SetType.PENG: PengXi(), SetType.WEI: WeiXi(), SetType.KAN: KanXi()}
    items: list[XiItem] = []
    for group in sit.hand.groups:
        if group.type in by_type:
            items.append(by_type[group.type].evaluate(group))
            tuanyuan = TuanYuanXi().evaluate(sit, group)
            if tuanyuan is not None:
                items.append(tuanyuan)
        elif group.type is SetType.PAIR:
            pair = ZhuanWanXi().evaluate(sit) or MaQueXi().evaluate(group)
            if pair is not None:
                items.append(pair)
    return items
