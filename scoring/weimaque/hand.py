"""A finished 偎麻雀 hand as the player lays it out: six 句 (碰 / 煨 / 砍 / 吃) and the 麻雀 pair, plus context.

Text form, one group per set, groups separated by ``,`` ``，`` ``;`` ``；`` ``|`` or a new line; each group starts
with its type and lists its cards (``scoring.weimaque.cards`` notation)::

    碰 柒柒柒, 煨 3 3 3, 砍 十十十, 吃 7B 8B 9B, 吃 一二三, 吃 四五六, 雀 捌 捌*

Types: 碰 (peng), 煨 (wei; also 偎 栽), 砍 (kan; also 刀), 吃 (chi: any 句 that is not three of a kind, claimed
or kept in hand), 雀 (pair; also 麻雀, que). A ``*`` right after one card marks the 揭 card that won (optional;
单吊 and 背靠背 need it). 团圆 and 转弯 are not typed: they are read off the cards.

Parsing checks the notation (each error names the bad token and its 1-based column) and the four-copy limit; whether
the groups form 6 句 + 麻雀 is the scorer's structure check, so a mis-built hand still gets a result saying why.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from enum import Enum

from scoring.weimaque.cards import COPIES_PER_CARD, NOTATION_HELP, Card, ascii_card, numeral_card


class WeimaqueInputError(ValueError):
    """Text or data that is not a 偎麻雀 hand; ``code`` is a machine reason, ``token``/``column`` locate it."""

    def __init__(self, message: str, code: str, token: str | None = None, column: int | None = None):
        super().__init__(message)
        self.code = code
        self.token = token
        self.column = column


class SetType(str, Enum):
    PENG = "碰"
    WEI = "煨"
    KAN = "砍"
    CHI = "吃"
    PAIR = "雀"

    @property
    def is_triplet(self) -> bool:
        return self in (SetType.PENG, SetType.WEI, SetType.KAN)


TYPE_WORDS: dict[str, SetType] = {
    "麻雀": SetType.PAIR, "雀": SetType.PAIR, "碰": SetType.PENG, "煨": SetType.WEI, "偎": SetType.WEI,
    "栽": SetType.WEI, "砍": SetType.KAN, "刀": SetType.KAN, "吃": SetType.CHI,
    "peng": SetType.PENG, "wei": SetType.WEI, "kan": SetType.KAN, "chi": SetType.CHI, "pair": SetType.PAIR,
    "que": SetType.PAIR,
}
GROUP_SEPARATORS = ",，;；|\n"
# 团圆 and 转弯 are sets the scorer finds in the cards (docs/weimaque.md); a player may still type them as a type
DERIVED_WORDS = ("团圆", "團圓", "转弯", "轉彎")
TYPES_HELP = "碰 peng, 煨 wei, 砍 kan, 吃 chi, 雀 pair"


@dataclass(frozen=True)
class Group:
    """One laid-out group: its type and cards; ``win`` = index of the winning (揭) card in it, if marked."""

    type: SetType
    cards: tuple[Card, ...]
    win: int | None = None

    @property
    def win_card(self) -> Card | None:
        return self.cards[self.win] if self.win is not None else None

    def text(self) -> str:
        cards = [c.zh + ("*" if i == self.win else "") for i, c in enumerate(self.cards)]
        return f"{self.type.value} {''.join(cards)}"


@dataclass(frozen=True)
class WeimaqueContext:
    """How the hand was won, beyond the cards."""

    last_card: bool = False  # 海底胡: won on the last card
    shou_qian_shou: bool = False  # the player claims 手牵手 (undefined in the seed; scored only with a house value)


@dataclass(frozen=True)
class WeimaqueHand:
    groups: tuple[Group, ...]
    context: WeimaqueContext = field(default_factory=WeimaqueContext)

    def __post_init__(self) -> None:
        object.__setattr__(self, "groups", tuple(self.groups))
        if not self.groups:
            raise WeimaqueInputError("the hand is empty: give six 句 and the 麻雀", "empty_hand")
        wins = [g for g in self.groups if g.win is not None]
        if len(wins) > 1:
            raise WeimaqueInputError(
                f"{len(wins)} cards are marked * as the winning card; mark one", "several_winning_cards"
            )
        for card, count in Counter(self.cards).items():
            if count > COPIES_PER_CARD:
                raise WeimaqueInputError(
                    f"{count} copies of {card.zh} ({card.code}): the deck has only {COPIES_PER_CARD} of each card",
                    "too_many_copies", card.zh,
                )

    @property
    def cards(self) -> tuple[Card, ...]:
        return tuple(card for group in self.groups for card in group.cards)

    @property
    def sets(self) -> tuple[Group, ...]:
        """The 句 (every group that is not the pair)."""
        return tuple(g for g in self.groups if g.type is not SetType.PAIR)

    @property
    def pairs(self) -> tuple[Group, ...]:
        return tuple(g for g in self.groups if g.type is SetType.PAIR)

    @property
    def win_group(self) -> Group | None:
        return next((g for g in self.groups if g.win is not None), None)

    def count(self, card: Card) -> int:
        return sum(1 for c in self.cards if c == card)

    def text(self) -> str:
        return ", ".join(group.text() for group in self.groups)


def parse_hand(text: str, context: WeimaqueContext | None = None) -> WeimaqueHand:
    """A hand from its text form; raises WeimaqueInputError naming the bad token and its column."""
    if not isinstance(text, str) or not text.strip():
        raise WeimaqueInputError("the hand is empty: give six 句 and the 麻雀, e.g. '碰 柒柒柒, ...'", "empty_hand")
    groups = [group for group in (_parse_group(text, start, end, n) for n, (start, end) in
                                  enumerate(_group_spans(text), 1)) if group is not None]
    return WeimaqueHand(tuple(groups), context or WeimaqueContext())


def _group_spans(text: str) -> list[tuple[int, int]]:
    spans, start = [], 0
    for i, ch in enumerate(text):
        if ch in GROUP_SEPARATORS:
            spans.append((start, i))
            start = i + 1
    spans.append((start, len(text)))
    return spans


def _parse_group(text: str, start: int, end: int, number: int) -> Group | None:
    """One group ``TYPE cards``; None for an empty group (e.g. a trailing comma)."""
    set_type: SetType | None = None
    cards: list[Card] = []
    win: int | None = None
    i = start
    while i < end:
        ch = text[i]
        if ch.isspace() or ch in ":：":
            i += 1
            continue
        where = f"column {i + 1} (group {number})"
        if ch == "*":
            if not cards or win == len(cards) - 1:
                raise WeimaqueInputError(f"{where}: '*' must follow a card (it marks the winning card)",
                                         "bad_token", "*", i + 1)
            if win is not None:  # a group keeps one mark: the hand's own check would never see this one
                raise WeimaqueInputError(f"{where}: a second card is marked * as the winning card; mark one",
                                         "several_winning_cards", "*", i + 1)
            win = len(cards) - 1
            i += 1
            continue
        word = _type_word_at(text, i, end)
        if word is not None:
            if set_type is not None or cards:
                raise WeimaqueInputError(f"{where}: type {word!r} must open its group; separate groups with ','",
                                         "bad_token", word, i + 1)
            set_type = TYPE_WORDS[word.lower()]
            i += len(word)
            continue
        derived = next((word for word in DERIVED_WORDS if text.startswith(word, i)), None)
        if derived is not None:
            raise WeimaqueInputError(f"{where}: {derived!r} is not typed: 团圆 and 转弯 are read off the cards; lay "
                                     f"the three of a kind as 碰, 煨 or 砍 and the fourth in another 句 (a 团圆), or "
                                     f"the 麻雀's card in another 句 (a 转弯)", "bad_token", derived, i + 1)
        token, card = _card_at(text, i, end)
        if card is None:
            raise WeimaqueInputError(f"{where}, card {len(cards) + 1}: {token!r} is not a card; {NOTATION_HELP}",
                                     "bad_token", token, i + 1)
        if set_type is None:
            raise WeimaqueInputError(f"{where}: the group starts with a card {token!r}; give its type first "
                                     f"({TYPES_HELP})", "missing_type", token, i + 1)
        cards.append(card)
        i += len(token)
    if set_type is None:
        return None
    if not cards:
        raise WeimaqueInputError(f"group {number} ({set_type.value}) has no cards", "empty_group",
                                 set_type.value, start + 1)
    return Group(set_type, tuple(cards), win)


def _type_word_at(text: str, i: int, end: int) -> str | None:
    if text[i].isascii() and text[i].isalpha():
        j = i
        while j < end and text[j].isascii() and text[j].isalnum():
            j += 1
        word = text[i:j]
        return word if word.lower() in TYPE_WORDS else None
    for word in sorted((w for w in TYPE_WORDS if not w.isascii()), key=len, reverse=True):
        if text.startswith(word, i) and i + len(word) <= end:
            return word
    return None


def _card_at(text: str, i: int, end: int) -> tuple[str, Card | None]:
    """The token starting at ``i`` and the card it names (None when it names none)."""
    if text[i].isascii() and text[i].isalnum():
        j = i
        while j < end and text[j].isascii() and text[j].isalnum():
            j += 1
        token = text[i:j]
        return token, ascii_card(token)
    return text[i], numeral_card(text[i])

