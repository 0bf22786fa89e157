"""Shape names and the result structures of the win-shape search (the cross-helper contract)."""

from __future__ import annotations

from dataclasses import dataclass

from scoring.hand import Meld

# Shape names exactly as ../shared/rules/golden.json writes them.
PLAIN = "plain"
SEVEN_PAIRS = "seven_pairs"
THIRTEEN_ORPHANS = "thirteen_orphans"
HONORS_AND_KNITTED = "honors_and_knitted"  # 全不靠
GREATER_HONORS_AND_KNITTED = "greater_honors_and_knitted"  # 七星不靠
KNITTED_STRAIGHT = "knitted_straight"  # 组合龙: 9 knitted tiles + 1 set + 1 pair
KNITTED_STRAIGHT_IN_HK = "knitted_straight_in_hk"  # 全不靠 that holds all 9 knitted tiles

#: The fixed order in which ShapeReport.shapes lists the shapes that hold.
SHAPE_ORDER: tuple[str, ...] = (
    PLAIN,
    SEVEN_PAIRS,
    THIRTEEN_ORPHANS,
    HONORS_AND_KNITTED,
    GREATER_HONORS_AND_KNITTED,
    KNITTED_STRAIGHT,
    KNITTED_STRAIGHT_IN_HK,
)
ALL_SHAPES: frozenset[str] = frozenset(SHAPE_ORDER)

CHOW = "chow"
PUNG = "pung"
KONG = "kong"


@dataclass(frozen=True)
class Block:
    """One set of a decomposition."""

    type: str  # "chow" | "pung" | "kong"
    tiles: tuple[int, ...]
    meld: Meld | None = None  # the declared meld it is; None when formed from concealed tiles

    @property
    def kind(self) -> int:
        """The repeated kind of a pung/kong, the lowest tile of a chow."""
        return self.tiles[0]


@dataclass(frozen=True)
class Decomposition:
    """One reading of a plain or knitted-straight hand."""

    pair: int
    blocks: tuple[Block, ...]  # all sets: concealed ones in tile order (honour pungs last), then declared melds
    knitted: tuple[int, ...] = ()  # the 9 knitted tiles of a 组合龙 reading, else ()


@dataclass(frozen=True)
class ShapeReport:
    shapes: tuple[str, ...]  # every shape that holds, in SHAPE_ORDER
    plain: tuple[Decomposition, ...] = ()  # every plain decomposition (melds fixed)
    knitted_straight: tuple[Decomposition, ...] = ()  # every 组合龙 reading
    seven_pairs_quads: int = 0  # groups of 4 identical tiles when seven pairs holds, else 0

    def holds(self, shape: str) -> bool:
        if shape not in ALL_SHAPES:
            raise ValueError(f"unknown shape {shape!r}; known: {', '.join(SHAPE_ORDER)}")
        return shape in self.shapes
