"""A hand as the scorer takes it: concealed tiles, declared melds, the winning tile and the table context.

Both classes validate on creation and raise HandError with a message a player can act on. ``Hand.from_case``
reads the schema of ../shared/rules/golden.json (``hand`` = concealed tiles before the winning tile).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from scoring.tiles import (
    COPIES_PER_KIND,
    N_KINDS,
    TILE_NAMES,
    TileParseError,
    TooManyCopiesError,
    format_compact,
    is_honor,
    kind_of,
    parse_tiles,
    suit_of,
)

N_SEATS = 4
MAX_BET = 4


class HandError(ValueError):
    """The hand cannot be scored as given (bad tiles, a group that is no meld, wrong count...)."""

    def __init__(self, message: str, code: str = "invalid_hand"):
        super().__init__(message)
        self.code = code


def _check_kinds(tiles: tuple[int, ...], where: str) -> None:
    """Every tile must be one of the 34 kinds (ints 0-33); detector classes ``back``/``flower`` are not tiles."""
    for tile in tiles:
        if isinstance(tile, bool) or not isinstance(tile, int) or not 0 <= tile < N_KINDS:
            raise HandError(f"{where}: {tile!r} is not a tile kind (0-33)", "invalid_tiles")


class MeldType(str, Enum):
    CHOW = "chow"
    PUNG = "pung"
    KONG_EXPOSED = "kong_exposed"  # 明杠 / 放杠: claimed from a discard
    KONG_ADDED = "kong_added"  # 补杠 / 续杠: own pung plus the 4th tile
    KONG_CONCEALED = "kong_concealed"  # 暗杠

    @property
    def is_kong(self) -> bool:
        return self.value.startswith("kong")


@dataclass(frozen=True)
class Meld:
    type: MeldType
    tiles: tuple[int, ...]
    from_seat: int | None = None  # who supplied the claimed tile (chow, pung, kong_exposed)

    def __post_init__(self) -> None:
        object.__setattr__(self, "type", MeldType(self.type))
        _check_kinds(self.tiles, f"{self.type.value} meld")
        tiles = tuple(sorted(self.tiles))
        object.__setattr__(self, "tiles", tiles)
        label = f"{self.type.value} {format_compact(tiles)}"
        if self.type is MeldType.CHOW:
            first = tiles[0] if tiles else 0
            if (
                len(tiles) != 3
                or is_honor(first)
                or tiles != (first, first + 1, first + 2)
                or suit_of(first) != suit_of(tiles[2])
            ):
                raise HandError(f"{label} is not a chow: a chow is three consecutive tiles of one suit", "bad_meld")
        else:
            size = 4 if self.type.is_kong else 3
            if len(tiles) != size or len(set(tiles)) != 1:
                raise HandError(f"{label} is not a {self.type.value}: it needs {size} identical tiles", "bad_meld")
        if self.from_seat is not None and (isinstance(self.from_seat, bool) or not isinstance(self.from_seat, int)):
            raise HandError(f"{label}: 'from' is {self.from_seat!r}, not a seat 0-3", "bad_seat")
        if self.from_seat is not None and not 0 <= self.from_seat < N_SEATS:
            raise HandError(f"{label}: 'from' seat {self.from_seat} is out of range 0-3", "bad_seat")

    @classmethod
    def parse(cls, type: str, tiles: str | list[int], from_seat: int | None = None) -> Meld:
        if not isinstance(tiles, (str, list, tuple)):
            raise HandError(f"meld tiles {tiles!r}: write them as notation, e.g. \"555p\"", "invalid_tiles")
        try:
            kinds = parse_tiles(tiles) if isinstance(tiles, str) else list(tiles)
            meld_type = MeldType(type)
        except TileParseError as exc:
            raise HandError(f"meld {tiles!r}: {exc}", "invalid_tiles") from exc
        except ValueError as exc:
            names = ", ".join(t.value for t in MeldType)
            raise HandError(f"unknown meld type {type!r}; use one of {names}", "bad_meld") from exc
        return cls(meld_type, tuple(kinds), from_seat)

    @property
    def kind(self) -> int:
        """The repeated kind of a pung or kong; the lowest tile of a chow."""
        return self.tiles[0]

    @property
    def is_kong(self) -> bool:
        return self.type.is_kong

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type.value, "tiles": format_compact(self.tiles)}
        if self.from_seat is not None:
            out["from"] = self.from_seat
        return out


@dataclass(frozen=True)
class Context:
    """Who won how: the fields of golden.json's ``context``."""

    winner: int = 0
    dealer: int = 0
    self_draw: bool | None = None  # None: self-drawn exactly when no discarder is named (so Context() is valid)
    discarder: int | None = None  # for robbing_kong: the player whose kong was robbed
    bets: tuple[int, ...] = (0, 0, 0, 0)
    kong_replacement: bool = False  # 杠上花 / 杠后开花
    last_tile: bool = False  # 海底
    heavenly: bool = False  # 天胡
    earthly: bool = False  # 地胡
    robbing_kong: bool = False  # 抢杠
    after_kong_discard: bool = False  # Weinan 杠后点胡
    missing_suit: str | None = None  # Weinan 定缺: 'm', 'p' or 's'

    def __post_init__(self) -> None:
        self._check_types()
        object.__setattr__(self, "bets", tuple(self.bets))
        if self.robbing_kong and self.self_draw:
            raise HandError("robbing a kong (抢杠) is a win on another player's kong, not self-drawn", "bad_context")
        if self.after_kong_discard and self.self_draw:
            raise HandError("杠后点胡 (after_kong_discard) is a win on a discard, not self-drawn", "bad_context")
        self._check_one_way_of_winning()
        if self.kong_replacement and self.discarder is not None:
            raise HandError("a kong-replacement win (杠上花) is self-drawn: it has no discarder", "bad_context")
        if self.self_draw is None:
            claimed = self.discarder is not None or self.earthly or self.robbing_kong or self.after_kong_discard
            object.__setattr__(self, "self_draw", not claimed)
        for name in ("winner", "dealer"):
            seat = getattr(self, name)
            if not 0 <= seat < N_SEATS:  # whole numbers: _check_types
                raise HandError(f"{name} seat {seat!r} is out of range 0-3", "bad_seat")
        if len(self.bets) != N_SEATS:
            raise HandError(f"bets need one value per seat (4), got {len(self.bets)}", "bad_bets")
        if self.missing_suit is not None and self.missing_suit not in ("m", "p", "s"):
            raise HandError(f"missing suit {self.missing_suit!r}: use m, p or s", "bad_context")
        # A self-drawn win (天胡 included) has no discarder; otherwise name who fed the tile.
        is_self_draw = self.self_draw or self.heavenly or self.kong_replacement
        if is_self_draw and not self.robbing_kong:
            if self.discarder is not None:
                raise HandError("a self-drawn win has no discarder", "bad_context")
        elif self.earthly and self.discarder is None and self.winner == self.dealer:
            pass  # a dealer's 地胡 has no discarder to name: the rule set says why it cannot win (as when one is named)
        else:
            if self.discarder is None and self.earthly:
                object.__setattr__(self, "discarder", self.dealer)
            if self.discarder is None and self.robbing_kong:
                raise HandError("robbing a kong needs the seat whose kong was robbed (discarder)", "bad_context")
            if self.discarder is None and self.after_kong_discard:
                raise HandError("杠后点胡 (after_kong_discard) needs the discarder's seat: the player who discarded "
                                "right after their kong", "bad_context")
            if self.discarder is None:
                raise HandError(
                    "a win on a discard needs the discarder's seat (or mark it self-drawn)", "bad_context"
                )
            if not 0 <= self.discarder < N_SEATS:
                raise HandError(f"discarder seat {self.discarder} is out of range 0-3", "bad_seat")
            if self.discarder == self.winner:
                raise HandError("the discarder cannot be the winner", "bad_seat")

    def _check_one_way_of_winning(self) -> None:
        """天胡 and 杠上花 are self-drawn; 抢杠 wins on another player's kong tile and 杠后点胡 on another player's
        discard: a context naming one of each names no win. Left through, the flags contradicted each other
        silently (天胡 with 抢杠 was paid by the robbed player alone)."""
        drawn = [name for flag, name in ((self.heavenly, "天胡 (heavenly)"),
                                         (self.kong_replacement, "杠上花 (kong_replacement)")) if flag]
        claimed = [name for flag, name in ((self.robbing_kong, "抢杠 (robbing_kong)"),
                                           (self.after_kong_discard, "杠后点胡 (after_kong_discard)")) if flag]
        if drawn and claimed:
            raise HandError(f"two ways of winning: {drawn[0]} is self-drawn, {claimed[0]} is won on another "
                            "player's tile", "bad_context")
        if self.robbing_kong and self.earthly:  # no pung is out before the dealer's first discard, so no added kong
            raise HandError("two ways of winning: 抢杠 (robbing_kong) is won on the tile another player adds to a "
                            "pung, 地胡 (earthly) on the dealer's first discard", "bad_context")

    def _check_types(self) -> None:
        """JSON input can carry any type: a seat must be a whole number and a flag true or false (not "no")."""
        for name in ("winner", "dealer", "discarder"):
            seat = getattr(self, name)
            if not (seat is None and name == "discarder") and (isinstance(seat, bool) or not isinstance(seat, int)):
                raise HandError(f"{name} seat {seat!r} is not a whole number 0-3", "bad_seat")
        for name in ("self_draw", "kong_replacement", "last_tile", "heavenly", "earthly", "robbing_kong",
                     "after_kong_discard"):
            flag = getattr(self, name)
            if not isinstance(flag, bool) and not (flag is None and name == "self_draw"):
                raise HandError(f"{name} is {flag!r}: use true or false", "bad_context")
        if isinstance(self.bets, (str, bytes)) or not hasattr(self.bets, "__iter__"):
            raise HandError(f"bets {self.bets!r}: give one whole number per seat (4)", "bad_bets")
        for seat, bet in enumerate(self.bets):
            if isinstance(bet, bool) or not isinstance(bet, int) or bet < 0:
                raise HandError(f"bet of seat {seat} is {bet!r}: bets are whole numbers from 0", "bad_bets")

    @property
    def is_self_draw(self) -> bool:
        return (self.self_draw or self.heavenly or self.kong_replacement) and not self.robbing_kong

    @property
    def losers(self) -> tuple[int, ...]:
        return tuple(s for s in range(N_SEATS) if s != self.winner)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Context:
        known = {f for f in cls.__dataclass_fields__}
        unknown = sorted(set(data) - known)
        if unknown:
            raise HandError(f"unknown context field(s): {', '.join(unknown)}", "bad_context")
        return cls(**data)

    def to_dict(self) -> dict[str, Any]:
        return {name: getattr(self, name) if name != "bets" else list(self.bets) for name in self.__dataclass_fields__}


@dataclass(frozen=True)
class Hand:
    """Concealed tiles before the winning tile, melds, the winning tile (None for a 13-tile hand) and context."""

    concealed: tuple[int, ...]
    melds: tuple[Meld, ...] = ()
    win_tile: int | None = None
    context: Context = field(default_factory=Context)

    def __post_init__(self) -> None:
        object.__setattr__(self, "concealed", tuple(self.concealed))
        object.__setattr__(self, "melds", tuple(self.melds))
        _check_kinds(self.concealed, "concealed tiles")
        if self.win_tile is not None:
            _check_kinds((self.win_tile,), "winning tile")
        expected = 13 - 3 * len(self.melds)
        if len(self.melds) > 4:
            raise HandError(f"{len(self.melds)} melds: a hand holds at most 4", "wrong_tile_count")
        if len(self.concealed) != expected:
            kongs = sum(m.is_kong for m in self.melds)
            total = len(self.concealed) + sum(len(m.tiles) for m in self.melds) + (self.win_tile is not None)
            want = 14 + kongs if self.win_tile is not None else 13 + kongs
            raise HandError(
                f"wrong tile count: {total} tiles, a hand with {len(self.melds)} meld(s) and {kongs} kong(s) needs "
                f"{want} ({expected} concealed before the winning tile, got {len(self.concealed)})",
                "wrong_tile_count",
            )
        counts = Counter(self.all_tiles)
        for kind, count in counts.items():
            if count > COPIES_PER_KIND:
                raise HandError(str(TooManyCopiesError(kind, count)) + " (melds included)", "invalid_tiles")

    @property
    def all_tiles(self) -> tuple[int, ...]:
        """Every tile the player shows: concealed, winning tile and all meld tiles."""
        tiles = list(self.concealed)
        if self.win_tile is not None:
            tiles.append(self.win_tile)
        for meld in self.melds:
            tiles.extend(meld.tiles)
        return tuple(tiles)

    @property
    def closed_tiles(self) -> tuple[int, ...]:
        """Concealed tiles plus the winning tile: what the win-shape search arranges."""
        return self.concealed + ((self.win_tile,) if self.win_tile is not None else ())

    @classmethod
    def parse(
        cls,
        concealed: str,
        melds: list[dict[str, Any]] | None = None,
        win_tile: str | None = None,
        context: dict[str, Any] | Context | None = None,
    ) -> Hand:
        """Build from notation; all errors become HandError with the tile problem spelled out."""
        if not isinstance(concealed, str):
            raise HandError(f"hand {concealed!r}: write the tiles as notation, e.g. \"123m456p...\"", "invalid_tiles")
        if win_tile is not None and not isinstance(win_tile, str):
            raise HandError(f"winning tile {win_tile!r}: write it as notation, e.g. \"5p\"", "invalid_tiles")
        if melds is not None and not isinstance(melds, (list, tuple)):
            raise HandError(f"melds {melds!r}: give a list of meld objects", "bad_meld")
        for number, meld in enumerate(melds or [], start=1):
            if not isinstance(meld, dict) or "type" not in meld or "tiles" not in meld:
                raise HandError(f"meld {number} ({meld!r}) needs a 'type' and 'tiles'", "bad_meld")
        if context is not None and not isinstance(context, (dict, Context)):
            raise HandError(f"context {context!r}: give an object of context fields", "bad_context")
        try:
            tiles = parse_tiles(concealed, check_copies=False)
        except TileParseError as exc:
            raise HandError(str(exc), "invalid_tiles") from exc
        try:
            win = kind_of(win_tile) if win_tile else None
        except TileParseError as exc:  # its position counts in the winning tile's text, not in the hand's
            raise HandError(f"winning tile {win_tile!r}: {exc}", "invalid_tiles") from exc
        parsed_melds = [
            Meld.parse(m["type"], m["tiles"], m.get("from", m.get("from_seat"))) for m in (melds or [])
        ]
        ctx = context if isinstance(context, Context) else Context.from_dict(dict(context or {}))
        return cls(tuple(tiles), tuple(parsed_melds), win, ctx)

    @classmethod
    def from_case(cls, case: dict[str, Any]) -> Hand:
        """A case in golden.json's schema (``hand``, ``melds``, ``win_tile``, ``context``)."""
        for key in ("hand",):
            if key not in case:
                raise HandError(f"case is missing {key!r}", "bad_case")
        # passed as given (parse takes null for none): `or` would let a [] context or a 0 melds pass as none
        return cls.parse(case["hand"], case.get("melds"), case.get("win_tile"), case.get("context"))

    def to_dict(self) -> dict[str, Any]:
        return {
            "hand": format_compact(self.concealed),
            "melds": [m.to_dict() for m in self.melds],
            "win_tile": format_compact([self.win_tile]) if self.win_tile is not None else None,
            "context": self.context.to_dict(),
        }
