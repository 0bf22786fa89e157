"""The 80 paper cards of 安乡偎麻雀 (seed 003) and their notation.

Twenty kinds, four copies each: 小写 一..十 and 大写 壹..拾. 二 七 十 and 贰 柒 拾 are red, the rest black.
大字 and 小字 are two systems that do not mix (大字只能吃大字，小字只能吃小字).

Notation, one card per token:

* small (小写): ``1`` .. ``10`` or 一 二 三 四 五 六 七 八 九 十
* big (大写): ``1B`` .. ``10B`` (``b`` too) or 壹 贰 叁 肆 伍 陆 柒 捌 玖 拾 (traditional 貳 參 陸 accepted)

ASCII tokens are separated by spaces; Chinese numerals may be written together (``柒捌玖``). The canonical text
of a card (``format``) is its Chinese numeral.
"""

from __future__ import annotations

from dataclasses import dataclass

SMALL_NUMERALS = "一二三四五六七八九十"
BIG_NUMERALS = "壹贰叁肆伍陆柒捌玖拾"
TRADITIONAL_BIG = {"貳": 2, "參": 3, "陸": 6}
RED_NUMBERS = frozenset({2, 7, 10})
COPIES_PER_CARD = 4
N_NUMBERS = 10


@dataclass(frozen=True, order=True)
class Card:
    """One card: ``number`` 1..10 and ``big`` (大写 壹..拾) or small (小写 一..十)."""

    big: bool
    number: int

    def __post_init__(self) -> None:
        if not 1 <= self.number <= N_NUMBERS:
            raise ValueError(f"card number {self.number} is out of range 1-10")

    @property
    def red(self) -> bool:
        return self.number in RED_NUMBERS

    @property
    def zh(self) -> str:
        return (BIG_NUMERALS if self.big else SMALL_NUMERALS)[self.number - 1]

    @property
    def code(self) -> str:
        """ASCII form: ``7`` small, ``7B`` big."""
        return f"{self.number}B" if self.big else str(self.number)

    def __str__(self) -> str:
        return self.zh


ALL_CARDS: tuple[Card, ...] = tuple(Card(big, n) for big in (False, True) for n in range(1, N_NUMBERS + 1))

_NUMERALS: dict[str, Card] = {ch: Card(False, i + 1) for i, ch in enumerate(SMALL_NUMERALS)}
_NUMERALS.update({ch: Card(True, i + 1) for i, ch in enumerate(BIG_NUMERALS)})
_NUMERALS.update({ch: Card(True, n) for ch, n in TRADITIONAL_BIG.items()})

NOTATION_HELP = "cards are 1-10 or 一..十 (小写), 1B-10B or 壹..拾 (大写)"


def numeral_card(char: str) -> Card | None:
    """The card a Chinese numeral names, or None."""
    return _NUMERALS.get(char)


def ascii_card(token: str) -> Card | None:
    """The card an ASCII token (``7``, ``10``, ``7B``, ``7b``) names, or None."""
    big = token[-1:] in ("B", "b")
    digits = token[:-1] if big else token
    if not (digits.isascii() and digits.isdigit()) or digits.startswith("0"):
        return None
    number = int(digits)
    return Card(big, number) if 1 <= number <= N_NUMBERS else None


def format_cards(cards: tuple[Card, ...] | list[Card]) -> str:
    return "".join(card.zh for card in cards)
