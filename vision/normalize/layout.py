"""The layout of a photo's tiles: row direction, rows, gap-separated groups, sideways tiles, meld-like groups."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from scoring.tiles import BACK
from vision.normalize.geometry import Frame, aspect_along_row, box_aspect_angle, row_directions
from vision.normalize.melds import split_into_melds, type_group
from vision.normalize.options import ReadOptions
from vision.normalize.rows import Row, fit_rows, local_reference, row_spacings, smooth_sizes, split_by_gaps

_SIDEWAYS_DEG = 8.0  # a box diagonal this far from the row's typical one is a tile turned sideways
_ROW_TOLERANCE = 0.4  # a tile is on a row line when its centre is within this many tile sizes of it
_ROW_REACH = 5.0  # tile sizes between neighbours along a row line past which it is two rows: further than
# the hand reaches (ReadOptions.hand_distance), so a hand's row never breaks, while discards in line with it part
_TOUCHING_PERCENTILE = 30
_DEFAULT_WIDTH = 0.87  # one tile width in tile sizes (sqrt of the box area) for an upright 3:4 tile
_SIDEWAYS_LENGTH = 1.33  # a sideways tile's length along the row in upright tile widths
_MERGE_LIMIT = 1.6
_PEEL_GAP = 0.9  # the widest gap of a run, this share of the split limit, parts a claimed meld from the row  # groups split by a gap under this share of the split limit may be one meld


@dataclass
class Group:
    """A run of touching tiles in one row."""

    members: list[int]  # indices into the active tiles, in row order
    row: int
    pieces: list[tuple[int, int]] = field(default_factory=list)  # (start, stop) of each meld it holds; [] if none
    stacked: dict[int, int] = field(default_factory=dict)  # piece start -> tile lying on its sideways tile (补杠)
    gap_before: float = float("inf")  # the gap to the previous group of its row, as a share of the split limit
    gaps: list[float] = field(default_factory=list)  # the same share for each pair of neighbours inside it

    @property
    def meldlike(self) -> bool:
        return bool(self.pieces)


@dataclass
class Layout:
    frame: Frame
    xy: np.ndarray  # frame coordinates of the active tiles' centres
    size: np.ndarray  # sqrt(box area): the tile size measure everything is relative to
    sideways: np.ndarray
    aspect: np.ndarray  # box diagonal angles (geometry.box_aspect_angle)
    rows: list[Row]
    groups: list[Group]


def build_layout(boxes: np.ndarray, opts: ReadOptions, cut: np.ndarray | None = None, turned: bool = False) -> Layout:
    """Rows and gap-separated groups of the tiles. ``cut``: boxes the photo's edge cuts, never taken for sideways
    tiles nor used to measure the tile size. ``turned``: the frame half a turn round (the photo is upside down for
    the player), so that along-row order runs to the player's right and rows from their far side."""
    cut = np.zeros(len(boxes), dtype=bool) if cut is None else cut
    centers = (boxes[:, :2] + boxes[:, 2:]) / 2
    sizes = np.maximum(boxes[:, 2:] - boxes[:, :2], 1e-3)
    size = np.sqrt(sizes[:, 0] * sizes[:, 1])
    # The concealed row (or the hand's row of melds) is the photo's longest: of the candidate directions, the one
    # with the longest row is the hand's, the most voted on a tie.
    fits = []
    for angle in row_directions(centers):
        frame = Frame(angle + (np.pi if turned else 0.0))
        xy = frame.to_frame(centers)
        fits.append((frame, xy, fit_rows(xy, _ROW_TOLERANCE * size, _ROW_REACH * size)))
    frame, xy, rows = max(fits, key=lambda fit: max(len(r.members) for r in fit[2]))
    rows = _reading_order(rows, xy, size)
    aspect = box_aspect_angle(sizes)
    overall = float(np.median(aspect))
    sideways = np.zeros(len(boxes), dtype=bool)
    for row in rows:
        members = list(row.members)
        whole = [m for m in members if not cut[m]]
        if len(whole) >= 3:
            reference = aspect_along_row(xy[whole, 0], aspect[whole], _SIDEWAYS_DEG, xy[members, 0])
        else:
            reference = np.full(len(members), overall)
        sideways[members] = np.abs(aspect[members] - reference) > _SIDEWAYS_DEG
    sideways &= ~cut
    extent = np.where(sideways, _SIDEWAYS_LENGTH, 1.0)
    per_width = []  # spacings in smoothed tile sizes, divided by the pair's expected length in tile widths
    pair_extent = []
    for row in rows:
        m = np.asarray(row.members, dtype=int)
        unit = smooth_sizes(row.members, xy, size, sideways | cut)
        pair = (extent[m[1:]] + extent[m[:-1]]) / 2.0
        per_width.append(row_spacings(row.members, xy, unit) / pair)
        pair_extent.append(pair)
    every = np.concatenate(per_width) if per_width else np.zeros(0)
    # Most neighbours in a photo touch, so a low percentile of all spacings is one tile width (in tile sizes).
    width = float(np.percentile(every, _TOUCHING_PERCENTILE)) if len(every) >= 3 else _DEFAULT_WIDTH
    width = max(width, 1e-6)  # boxes piled on one spot (no photo of a hand) space at 0: no gap is then 0 / 0
    groups: list[Group] = []
    for row_id, (row, spacing, pair) in enumerate(zip(rows, per_width, pair_extent)):
        reference = local_reference(spacing, width)
        limits = reference * (1.0 + opts.gap_ratio / pair)
        ratio = dict(zip(row.members[1:], spacing / limits))
        for run in split_by_gaps(row.members, spacing, limits):
            inner = [float(ratio[m]) for m in run[1:]]
            groups.append(Group(run, row_id, gap_before=ratio.get(run[0], float("inf")), gaps=inner))
    return Layout(frame, xy, size, sideways, aspect, rows, groups)


def _reading_order(rows: list[Row], xy: np.ndarray, size: np.ndarray) -> list[Row]:
    """Rows from the far side, and rows on one line (parted by the reach: melds either side of a wide gap) left to
    right. Which of two rows on one line lies higher is noise, yet the order numbers the melds (--meld-type,
    --kong-kind), so it must not decide it."""
    lines: list[list[Row]] = []
    for row in sorted(rows, key=lambda r: float(np.median(xy[list(r.members), 1]))):
        middle = np.median(xy[list(row.members)], axis=0)
        tolerance = _ROW_TOLERANCE * float(np.median(size[list(row.members)]))
        if lines and any(r.distance_to(middle)[0] <= tolerance for r in lines[-1]):
            lines[-1].append(row)
        else:
            lines.append([row])
    return [row for line in lines for row in sorted(line, key=lambda r: float(np.median(xy[list(r.members), 0])))]


def type_groups(groups: list[Group], classes: np.ndarray, sideways: np.ndarray, opts: ReadOptions) -> list[Group]:
    """Mark groups that look like melds: 3-4 tiles typing as one, or longer runs of touching melds (see
    _mark_pieces; a run of backs only is a wall, not kongs). Two neighbours of a row split by a narrow gap that together make a meld (and apart make
    none, or a pung and its fourth tile) are one group: perspective and a sideways tile can open a gap inside a meld.
    Returns the groups after those merges."""
    for group in groups:
        _mark_pieces(group, classes, sideways, opts)
    merged: list[Group] = []
    for group in groups:
        prev = merged[-1] if merged else None
        if prev is not None and prev.row == group.row and group.gap_before < _MERGE_LIMIT:
            both = prev.members + group.members
            cls = [int(classes[m]) for m in both]
            loose = not prev.meldlike and not group.meldlike
            kong = len(set(cls)) == 1 and len(cls) == 4
            if len(cls) in (3, 4) and (loose or kong) and type_group(cls, opts.face_up_kong).meld is not None:
                prev.members = both
                prev.gaps = prev.gaps + [group.gap_before] + group.gaps
                _mark_pieces(prev, classes, sideways, opts)
                continue
        merged.append(group)
    out: list[Group] = []
    for group in merged:
        out.extend(_peel_claimed_melds(group, classes, sideways, opts))
    return out


def _peel_claimed_melds(group: Group, classes: np.ndarray, sideways: np.ndarray, opts: ReadOptions) -> list[Group]:
    """Cut off a meld at the end of a longer run when it shows a sideways (claimed) tile, which a concealed row
    has not, and the run's widest gap (short of the split limit) parts it from the rest: a meld laid close to the row."""
    if group.meldlike or len(group.members) < 5:
        return [group]
    members = group.members
    for size in (3, 4):
        for piece, rest, first in ((members[:size], members[size:], True), (members[-size:], members[:-size], False)):
            cls = [int(classes[m]) for m in piece]
            cut = size - 1 if first else len(members) - size - 1  # index into gaps of the boundary
            if (
                len(rest) < 1
                or group.gaps[cut] < max(_PEEL_GAP, max(group.gaps))
                or not sideways[piece].any()
                or type_group(cls, opts.face_up_kong).meld is None
            ):
                continue
            gaps = group.gaps
            if first:
                meld = Group(list(piece), group.row, gap_before=group.gap_before, gaps=gaps[:cut])
                remainder = Group(list(rest), group.row, gap_before=gaps[cut], gaps=gaps[cut + 1:])
            else:
                remainder = Group(list(rest), group.row, gap_before=group.gap_before, gaps=gaps[:cut])
                meld = Group(list(piece), group.row, gap_before=gaps[cut], gaps=gaps[cut + 1:])
            _mark_pieces(meld, classes, sideways, opts)
            _mark_pieces(remainder, classes, sideways, opts)
            tail = _peel_claimed_melds(remainder, classes, sideways, opts)
            return [meld, *tail] if first else [*tail, meld]
    return [group]


def _mark_pieces(group: Group, classes: np.ndarray, sideways: np.ndarray, opts: ReadOptions) -> None:
    cls = [int(classes[m]) for m in group.members]
    group.pieces = []
    if len(cls) in (3, 4):
        reading = type_group(cls, opts.face_up_kong)
        if reading.meld is not None or reading.needs_kind:
            group.pieces = [(0, len(cls))]
    elif len(cls) >= 6 and set(cls) != {BACK}:
        # 6, 9 or 12 tiles can never be a concealed row (13 - 3k or 14 - 3k): always melds when they split; other
        # lengths only with a sign of melds, a sideways or face-down tile.
        if len(cls) % 3 == 0 or BACK in cls or sideways[group.members].any():
            group.pieces = split_into_melds(cls, opts.face_up_kong) or []
