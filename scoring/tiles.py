"""The 34 tile kinds and the two notations.

A tile kind is an int 0..33 in the order of datasets/classes.txt: 1m..9m (0-8), 1p..9p (9-17), 1s..9s (18-26),
E S W N C F P (27-33). The detector's class ids 0..33 are the same numbers, so no mapping sits between vision and
scoring.

Compact notation: digits followed by a suit letter, ``123m456p789s11z`` (z: 1-7 = E S W N C F P).
Token notation: the same tiles as tokens, ``1m 2m E C``; honours may also be written by letter inside compact
text (``123mEE``). Both parse to a list of kinds; ``format_compact`` writes the canonical compact form.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

SUITS = "mps"
HONOR_LETTERS = "ESWNCFP"
N_KINDS = 34
COPIES_PER_KIND = 4

#: Class names of the detector, in order (34 faces + face-down ``back`` + ``flower``).
TILE_NAMES: tuple[str, ...] = tuple(f"{n}{s}" for s in SUITS for n in range(1, 10)) + tuple(HONOR_LETTERS)
CLASS_NAMES: tuple[str, ...] = TILE_NAMES + ("back", "flower")
BACK = 34
FLOWER = 35

ZH_NAMES: tuple[str, ...] = (
    tuple(f"{d}万" for d in "一二三四五六七八九")
    + tuple(f"{d}筒" for d in "一二三四五六七八九")
    + tuple(f"{d}条" for d in "一二三四五六七八九")
    + ("东", "南", "西", "北", "中", "发", "白")
)
EN_NAMES: tuple[str, ...] = (
    tuple(f"{n} Characters" for n in range(1, 10))
    + tuple(f"{n} Dots" for n in range(1, 10))
    + tuple(f"{n} Bamboo" for n in range(1, 10))
    + ("East", "South", "West", "North", "Red Dragon", "Green Dragon", "White Dragon")
)

TERMINALS_AND_HONORS: tuple[int, ...] = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)


class TileParseError(ValueError):
    """Bad tile text; the message names the offending character and its 0-based position."""

    def __init__(self, message: str, text: str = "", position: int | None = None):
        super().__init__(message)
        self.text = text
        self.position = position


class TooManyCopiesError(ValueError):
    """More than four copies of one kind."""

    def __init__(self, kind: int, count: int):
        super().__init__(f"{count} copies of {TILE_NAMES[kind]}: a set has only {COPIES_PER_KIND}")
        self.kind = kind
        self.count = count


def suit_of(kind: int) -> str:
    """'m', 'p', 's' or 'z'."""
    return SUITS[kind // 9] if kind < 27 else "z"


def rank_of(kind: int) -> int:
    """1-9 for suited tiles, 1-7 for honours (E=1 .. P=7)."""
    return kind % 9 + 1 if kind < 27 else kind - 26


def is_honor(kind: int) -> bool:
    return kind >= 27


def kind_of(name: str) -> int:
    """Kind of one tile name: '5p', '5z', 'E', or a class name; raises TileParseError."""
    tiles = parse_tiles(name)
    if len(tiles) != 1:
        raise TileParseError(f"expected one tile, got {len(tiles)} in {name!r}", name)
    return tiles[0]


def parse_tiles(text: str, *, check_copies: bool = True) -> list[int]:
    """Parse compact (``123m45z``, ``123mEE``) or token (``1m 2m E``) notation into kinds, in written order."""
    tiles: list[int] = []
    pending: list[tuple[int, int]] = []  # (digit, position) waiting for their suit letter
    for pos, ch in enumerate(text):
        if ch.isspace() or ch in ",":
            if pending:
                _raise_pending(text, pending)
            continue
        if ch in "0123456789":
            if ch == "0":
                raise TileParseError(f"'0' at position {pos} is not a tile rank (ranks are 1-9)", text, pos)
            pending.append((int(ch), pos))
        elif ch.lower() in SUITS + "z" and ch.lower() == ch:
            if not pending:
                raise TileParseError(f"suit letter {ch!r} at position {pos} has no digits before it", text, pos)
            for digit, dpos in pending:
                if ch == "z":
                    if digit > 7:
                        raise TileParseError(
                            f"'{digit}' at position {dpos}: honours are 1z-7z (E S W N C F P)", text, dpos
                        )
                    tiles.append(26 + digit)
                else:
                    tiles.append(SUITS.index(ch) * 9 + digit - 1)
            pending.clear()
        elif ch in HONOR_LETTERS:
            if pending:
                _raise_pending(text, pending, ch)
            tiles.append(27 + HONOR_LETTERS.index(ch))
        elif ch in "MZ":
            raise TileParseError(f"suit letter {ch!r} at position {pos}: suit letters are lower case ({ch.lower()!r})",
                                 text, pos)
        else:
            raise TileParseError(
                f"unexpected character {ch!r} at position {pos}: use digits with m/p/s/z, or E S W N C F P", text, pos
            )
    if pending:
        _raise_pending(text, pending)
    if check_copies:
        check_copy_limit(tiles)
    return tiles


def _raise_pending(text: str, pending: list[tuple[int, int]], honour: str | None = None) -> None:
    digit, pos = pending[-1]
    hint = f"; suit letters are lower case ('{honour}' is {HONOUR_WORDS[honour]})" if honour in HONOUR_WORDS else ""
    raise TileParseError(f"digit '{digit}' at position {pos} has no suit letter (m, p, s or z) after it{hint}", text,
                         pos)


HONOUR_WORDS = {"S": "South", "P": "白, the white dragon"}  # the honour letters a suit letter is mistyped as


def check_copy_limit(tiles: Iterable[int]) -> None:
    """Raise TooManyCopiesError when any kind appears more than four times."""
    for kind, count in Counter(tiles).items():
        if count > COPIES_PER_KIND:
            raise TooManyCopiesError(kind, count)


def format_compact(tiles: Iterable[int], *, sort: bool = True, honors_as_z: bool = True) -> str:
    """Write kinds as compact notation, grouped by suit (``123m45p11z``); honours as z digits or letters."""
    kinds = sorted(tiles) if sort else list(tiles)
    out: list[str] = []
    run_suit = ""
    run: list[str] = []
    for kind in kinds:
        suit = suit_of(kind)
        if suit == "z" and not honors_as_z:
            if run:
                out.append("".join(run) + run_suit)
                run, run_suit = [], ""
            out.append(HONOR_LETTERS[kind - 27])
            continue
        if suit != run_suit and run:
            out.append("".join(run) + run_suit)
            run = []
        run_suit = suit
        run.append(str(rank_of(kind)))
    if run:
        out.append("".join(run) + run_suit)
    return "".join(out)


def format_tokens(tiles: Iterable[int]) -> str:
    """Write kinds as space-separated tokens (``1m 2m E``)."""
    return " ".join(TILE_NAMES[k] for k in tiles)


def counts_of(tiles: Iterable[int]) -> list[int]:
    """A 34-long count vector."""
    counts = [0] * N_KINDS
    for kind in tiles:
        counts[kind] += 1
    return counts
