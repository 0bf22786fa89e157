"""The hand being corrected: every tile of the photo with its place, and the edits a player makes at the table.

A Draft starts from the normalizer's ReadHand (or from typed tiles), takes one edit at a time (each returns a new
Draft), becomes a scorer Hand with ``to_hand`` and a YOLO label with ``label_boxes``. Tiles are never dropped
from the list: a deleted tile keeps its index with place ``deleted`` so indices stay valid across edits and the
label knows that box was not a tile.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from operator import attrgetter
from typing import Literal

from scoring.hand import N_SEATS, Context, Hand, HandError, Meld, MeldType
from scoring.tiles import BACK, CLASS_NAMES, N_KINDS, format_compact, parse_tiles

Place = Literal["hand", "win", "meld", "aside", "deleted"]
IN_HAND: tuple[Place, ...] = ("hand", "win", "meld")


class MeldProblem(HandError):
    """A HandError about one meld of the draft; ``meld`` is its index, which the page names (as the hand view
    numbers melds) in front of the message."""

    def __init__(self, meld: int, message: str, code: str):
        super().__init__(message, code)
        self.meld = meld


@dataclass(frozen=True)
class DraftTile:
    kind: int  # 0..33 a face, 34 back, 35 flower
    place: Place
    meld: int | None = None  # index into Draft.meld_types when place == "meld"
    box: tuple[float, float, float, float] | None = None  # pixels of the original photo; None when added by hand
    conf: float | None = None  # detector confidence; None when added by hand
    detected: int | None = None  # what the detector said, to tell corrected tiles apart
    choices: tuple[int, ...] = ()  # the classifier's next likeliest kinds, offered first when correcting the tile

    @property
    def name(self) -> str:
        return CLASS_NAMES[self.kind]


@dataclass(frozen=True)
class Draft:
    tiles: tuple[DraftTile, ...] = ()
    meld_types: tuple[MeldType, ...] = ()
    meld_feeders: tuple[int | None, ...] = ()  # the seat that fed meld i (an exposed kong's 4th tile); None: not named

    def __post_init__(self) -> None:
        # one feeder per meld: a Draft given its melds alone has none named yet
        unnamed = (None,) * (len(self.meld_types) - len(self.meld_feeders))
        object.__setattr__(self, "meld_feeders", tuple(self.meld_feeders) + unnamed)

    # --- reading ---------------------------------------------------------------------------------------------
    def indices(self, place: Place, meld: int | None = None) -> list[int]:
        return [i for i, t in enumerate(self.tiles) if t.place == place and (meld is None or t.meld == meld)]

    @property
    def concealed(self) -> list[int]:
        return self.indices("hand")

    @property
    def win(self) -> int | None:
        wins = self.indices("win")
        return wins[0] if wins else None

    def meld_members(self, meld: int) -> list[int]:
        return self.indices("meld", meld)

    @property
    def unboxed(self) -> list[int]:
        """Tiles in the hand that the photo's label cannot place: added by hand, so they have no box."""
        return [i for i, t in enumerate(self.tiles) if t.box is None and t.place in IN_HAND]

    @property
    def tile_count(self) -> int:
        return sum(t.place in IN_HAND for t in self.tiles)

    # --- edits -----------------------------------------------------------------------------------------------
    def set_kind(self, index: int, kind: int) -> Draft:
        _check_kind(kind)
        return self._with_tile(index, kind=kind)

    def delete(self, index: int) -> Draft:
        """The box was not a tile (a false detection), or an added tile is taken back."""
        return self._with_tile(index, place="deleted", meld=None)._tidy()

    def set_aside(self, index: int) -> Draft:
        """A real tile that is not part of this hand (a discard, a neighbour's tile)."""
        return self._with_tile(index, place="aside", meld=None)._tidy()

    def to_hand(self, index: int) -> Draft:
        """Move a tile into the concealed row (from a meld, the winning spot or the tiles set aside)."""
        return self._with_tile(index, place="hand", meld=None)._tidy()

    def to_meld(self, index: int, meld: int) -> Draft:
        self._check_meld(meld)
        return self._with_tile(index, place="meld", meld=meld)

    def new_meld(self, indices: list[int], meld_type: MeldType) -> Draft:
        """Make a new meld of the given tiles (taken from wherever they are)."""
        draft = replace(self, meld_types=self.meld_types + (MeldType(meld_type),))  # its feeder: not named yet
        meld = len(draft.meld_types) - 1
        for index in indices:
            draft = draft._with_tile(index, place="meld", meld=meld)
        return draft._tidy()

    def set_meld_type(self, meld: int, meld_type: MeldType) -> Draft:
        self._check_meld(meld)
        types = list(self.meld_types)
        types[meld] = MeldType(meld_type)
        return replace(self, meld_types=tuple(types))

    def set_feeder(self, meld: int, seat: int | None) -> Draft:
        """Name the seat that fed the meld (who discarded an exposed kong's 4th tile); None takes the name back."""
        self._check_meld(meld)
        if seat is not None and seat not in range(N_SEATS):
            raise ValueError(f"seat {seat!r} is not one of 0..{N_SEATS - 1}")
        feeders = list(self.meld_feeders)
        feeders[meld] = seat
        return replace(self, meld_feeders=tuple(feeders))

    def break_meld(self, meld: int) -> Draft:
        """Dissolve a meld: its tiles go back to the concealed row."""
        self._check_meld(meld)
        draft = self
        for index in self.meld_members(meld):
            draft = draft._with_tile(index, place="hand", meld=None)
        return draft._tidy()

    def set_win(self, index: int) -> Draft:
        """Make this tile the winning tile; the previous one goes back into the concealed row."""
        draft = self
        if self.win is not None and self.win != index:
            draft = draft._with_tile(self.win, place="hand")
        return draft._with_tile(index, place="win", meld=None)._tidy()

    def clear_win(self) -> Draft:
        """A 13-tile hand: the winning tile goes back into the concealed row (to list the waits)."""
        return self if self.win is None else self._with_tile(self.win, place="hand")

    def add(self, kind: int, place: Place = "hand", meld: int | None = None) -> Draft:
        """A tile the photo missed; it has no box, so the label is saved for review (see label_boxes)."""
        _check_kind(kind)
        draft = self
        if place == "meld":
            self._check_meld(meld)
        elif place == "win":
            draft = self.clear_win()
        tile = DraftTile(kind=kind, place=place, meld=meld if place == "meld" else None)
        return replace(draft, tiles=draft.tiles + (tile,))

    # --- results ---------------------------------------------------------------------------------------------
    def hand(self, context: Context | None = None) -> Hand:
        """The scorer's Hand; HandError says what still needs fixing."""
        for index in self.concealed + ([self.win] if self.win is not None else []):
            if self.tiles[index].kind >= N_KINDS:
                raise HandError(
                    f"tile {index + 1} is read as {self.tiles[index].name}: pick its face or set it aside",
                    "face_down_in_hand",
                )
        melds = [self.meld(m) for m in range(len(self.meld_types))]
        concealed = tuple(self.tiles[i].kind for i in self.concealed)
        win = self.tiles[self.win].kind if self.win is not None else None
        return Hand(concealed, tuple(melds), win, context or Context())

    def meld(self, meld: int) -> Meld:
        """Meld ``meld`` as the scorer takes it; face-down tiles of a concealed kong take the kind of its faces."""
        members = [self.tiles[i].kind for i in self.meld_members(meld)]
        meld_type = self.meld_types[meld]
        faces = [k for k in members if k < N_KINDS]
        if len(faces) < len(members):
            if meld_type is not MeldType.KONG_CONCEALED:
                raise MeldProblem(
                    meld, f"{meld_type.value} has face-down tiles: only a concealed kong shows backs",
                    "face_down_in_meld",
                )
            if not faces:
                raise MeldProblem(
                    meld, "a concealed kong shown as four backs: tap one and pick its face",
                    "kong_kind_unknown",
                )
            if len(set(faces)) != 1:
                raise MeldProblem(meld, f"a kong's faces must be one kind, got {format_compact(faces)}",
                                  "bad_meld")
            members = [faces[0]] * len(members)
        # only an exposed kong is paid by the seat that fed it; a feeder named before a change of type waits
        feeder = self.meld_feeders[meld] if meld_type is MeldType.KONG_EXPOSED else None
        try:
            return Meld(meld_type, tuple(members), feeder)
        except HandError as exc:
            raise MeldProblem(meld, str(exc), exc.code) from exc

    def label_boxes(self) -> tuple[list[tuple[int, tuple[float, float, float, float]]], bool]:
        """(class id, box) of every tile the photo shows, and whether the photo needs review before training
        (a tile in the hand has no box: the photo shows it but the label cannot say where)."""
        boxes = [(t.kind, t.box) for t in self.tiles if t.box is not None and t.place != "deleted"]
        return boxes, bool(self.unboxed)

    def summary(
        self,
        meld_name: Callable[[MeldType], str] = attrgetter("value"),
        tile_label: Callable[[int], str] = CLASS_NAMES.__getitem__,
    ) -> str:
        """The hand in compact notation: concealed, melds in brackets, ``+`` the winning tile. ``meld_name`` and
        ``tile_label`` write the meld types and the tiles outside the concealed row: codes by default, as the ledger
        keeps them (hand_view names them in the page's language)."""
        parts = [format_compact(self.tiles[i].kind for i in self.concealed if self.tiles[i].kind < N_KINDS)]
        for m, meld_type in enumerate(self.meld_types):
            kinds = [self.tiles[i].kind for i in self.meld_members(m)]
            parts.append(f"[{meld_name(meld_type)} {' '.join(tile_label(k) for k in kinds)}]")
        if self.win is not None:
            parts.append(f"+{tile_label(self.tiles[self.win].kind)}")
        return " ".join(p for p in parts if p)

    def suits_present(self) -> set[str]:
        """Suits (m/p/s) among the hand's face-up tiles, melds included."""
        kinds = [t.kind for t in self.tiles if t.place in IN_HAND and t.kind < 27]
        return {"mps"[k // 9] for k in kinds}

    # --- internals -------------------------------------------------------------------------------------------
    def _with_tile(self, index: int, **changes) -> Draft:
        if not 0 <= index < len(self.tiles):
            raise IndexError(f"no tile {index + 1}: the photo has {len(self.tiles)}")
        tiles = list(self.tiles)
        tiles[index] = replace(tiles[index], **changes)
        return replace(self, tiles=tuple(tiles))

    def _check_meld(self, meld: int | None) -> None:
        if meld is None or not 0 <= meld < len(self.meld_types):
            raise IndexError(f"no meld {meld}: the hand has {len(self.meld_types)}")

    def _tidy(self) -> Draft:
        """Drop melds left without tiles and renumber the rest."""
        used = sorted({t.meld for t in self.tiles if t.place == "meld" and t.meld is not None})
        if used == list(range(len(self.meld_types))):
            return self
        renumber = {old: new for new, old in enumerate(used)}
        tiles = tuple(replace(t, meld=renumber[t.meld]) if t.place == "meld" else t for t in self.tiles)
        return replace(self, tiles=tiles, meld_types=tuple(self.meld_types[m] for m in used),
                       meld_feeders=tuple(self.meld_feeders[m] for m in used))


def _check_kind(kind: int) -> None:
    if not isinstance(kind, int) or not 0 <= kind <= BACK:
        raise ValueError(f"tile kind {kind!r} is not one of the 34 faces or the back (0..{BACK})")


def from_read(read) -> Draft:
    """A Draft from ``vision.normalize.ReadHand``: every detection, placed where the reader put it."""
    tiles: list[DraftTile] = []
    pending_kongs: list[int] = []  # tiles of four-back kongs the reader could not name (meld index None)
    rows = [tile.row if tile.row is not None else -1 for tile in read.tiles]
    for tile in read.tiles:
        kind = CLASS_NAMES.index(tile.cls)
        detected = CLASS_NAMES.index(tile.detected_cls) if tile.detected_cls else kind
        place: Place = {"concealed": "hand", "win": "win", "meld": "meld"}.get(tile.group, "aside")
        if place == "meld" and tile.meld is None:
            pending_kongs.append(len(tiles))
        choices = tuple(CLASS_NAMES.index(c) for c in tile.choices)
        tiles.append(DraftTile(kind, place, tile.meld, tuple(tile.box), float(tile.conf), detected, choices))
    meld_types = [m.type for m in read.melds]
    # Four-back kongs: group their tiles four by four in reading order, as concealed kongs still to be named.
    pending_kongs.sort(key=lambda i: (rows[i], tiles[i].box[0]))
    for start in range(0, len(pending_kongs) - len(pending_kongs) % 4, 4):
        meld_types.append(MeldType.KONG_CONCEALED)
        for i in pending_kongs[start : start + 4]:
            tiles[i] = replace(tiles[i], meld=len(meld_types) - 1)
    for i in pending_kongs[len(pending_kongs) - len(pending_kongs) % 4 :]:
        tiles[i] = replace(tiles[i], place="aside", meld=None)
    # Hand tiles first so they carry small numbers (#1..#18): the concealed row left to right as the player sees
    # it, the winning tile, the melds in order; the tiles outside the hand after them.
    rank = {"hand": 0, "win": 1, "meld": 2, "aside": 3}
    order = sorted(
        range(len(tiles)),
        key=lambda i: (rank[tiles[i].place], tiles[i].meld if tiles[i].meld is not None else -1, tiles[i].box[0]),
    )
    return Draft(tuple(tiles[i] for i in order), tuple(meld_types))


class WinTileCountError(ValueError):
    """More than one tile typed as the winning tile."""

    def __init__(self, count: int):
        super().__init__(f"the winning tile is one tile, not {count}")
        self.count = count


def from_text(concealed: str, win: str | None = None) -> Draft:
    """A Draft typed by hand (no photo): ``123m456p...`` and an optional winning tile; raises TileParseError,
    TooManyCopiesError for a fifth copy of a tile, or WinTileCountError."""
    tiles = [DraftTile(k, "hand") for k in parse_tiles(concealed)]
    if win:
        won = parse_tiles(win)
        if len(won) > 1:  # "5s5s" or a hand pasted into the wrong field: which one was meant cannot be guessed
            raise WinTileCountError(len(won))
        tiles += [DraftTile(k, "win") for k in won]
    return Draft(tuple(tiles))

