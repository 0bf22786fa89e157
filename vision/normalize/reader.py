"""read_hand: detections → concealed tiles, melds, winning tile, with every doubt reported as a warning.

The layout it reads (docs/photo-layout.md): the concealed tiles in one row, the winning tile set apart at the right
end of that row, each exposed meld as its own group (beside the row or in rows above it), a claimed tile turned
sideways (an added kong's fourth tile may lie on it), a concealed kong with two or four tiles face down.

Steps: clean the detections → rows and gap-separated groups (layout.py) → meld-like groups → for every group that
could be the concealed row, a plan (the hand around it: melds, the winning tile, tiles that fit nowhere) → the plan
whose tile count works out, the longest row first → meld types, winning-tile convention, checks.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

import numpy as np

from scoring.hand import HandError, Meld, MeldType
from scoring.tiles import BACK, CLASS_NAMES, COPIES_PER_KIND, FLOWER, N_KINDS, TILE_NAMES, kind_of
from vision.detections import Detections
from vision.normalize.cleanup import clean_detections
from vision.normalize.geometry import cut_by_frame
from vision.normalize.layout import Group, Layout, build_layout, type_groups
from vision.normalize.melds import type_group
from vision.normalize.options import ReadOptions
from vision.normalize.reread import (
    Unit,
    best_winning_reading,
    cheapest_meld,
    likely_choices,
    meld_options,
    tile_options,
)
from vision.normalize.result import ReadHand, ReadTile, ReadWarning

_IN_LINE = 0.8  # a lone tile within this many tile sizes of the concealed row's line is in line with it
_ASKEW = 1.6  # a lone tile this close to the row line and inside its span was knocked out of it
_APART = 3.0  # the winning tile lies at most this many tile sizes beyond the end of the row
_LIKE_DEG = 8.0  # box diagonals this close: a tile lying the same way as the row's
_STACKED = 1.4  # a tile whose centre is this close (tile sizes) to a pung's sideways tile lies on it
# A run re-read as a meld changes at most this many of its tiles: changing three of four made a kong of a 4-tile
# concealed row (1m 1m 1m 2m) on the hold-out proxy, and no more hands were right with three.
_GROUP_REREAD = 2


@dataclass
class _Plan:
    """One reading of the hand around a candidate concealed group."""

    concealed: list[int]
    win: int | None
    pieces: list[tuple[Group, int]]  # (group, piece start) of each meld used
    region: list[Group]
    consistent: bool  # the tile count is one a hand can have
    askew: list[int] = field(default_factory=list)
    win_in_row: bool = False  # no tile set apart: the count says the row's last tile is the winning tile
    apart_unused: bool = False  # a tile lies set apart in line, yet the count says it is not the winning tile
    win_on_left: bool = False  # the winning tile was found set apart at the row's left end, not its right

    def rank(self, core: Group, xy: np.ndarray, size: np.ndarray) -> tuple:
        """Plans compared, in order: a tile count that works out; no set-apart tile left over; a winning tile (a
        photo is taken to score a win); a winning tile set apart rather than taken from the row (the convention: a
        row of discards with the right count is no rival for a hand laid out by it); the winning tile at the right
        end; more of the nearby melds used; the longer row; the bigger tiles (the concealed row is nearest the
        camera); the left-most."""
        return (
            self.consistent,
            not self.apart_unused,
            self.win is not None,
            not self.win_in_row,
            not self.win_on_left,
            len(self.pieces),
            len(core.members),
            float(np.median(size[core.members])),
            -float(xy[core.members[0], 0]),
        )


def read_hand(dets: Detections, image_size: tuple[int, int], options: ReadOptions | None = None) -> ReadHand:
    """Read the hand shown in one photo's detections. Never raises for odd input: doubts become warnings."""
    opts = options or ReadOptions()
    tiles = [
        ReadTile(cls=n, conf=float(p), box=tuple(float(v) for v in b), detected_cls=n)
        for n, p, b in zip(dets.class_names, dets.confidence, dets.xyxy)
    ]
    if dets.class_probs is not None:
        for tile, row, now in zip(tiles, dets.class_probs, dets.class_id):
            tile.choices = tuple(CLASS_NAMES[k] for k in likely_choices(row, int(now)))
    warnings: list[ReadWarning] = []
    active = clean_detections(dets, opts, warnings)
    if not active:
        warnings.append(ReadWarning("no_tiles", "no tiles were found in the photo"))
        return ReadHand([], [], None, tiles, warnings)
    return _Reader(dets, active, tiles, warnings, opts, image_size).read()


class _Reader:
    """One read: the active tiles' layout while the steps give every tile a role."""

    def __init__(self, dets: Detections, active: list[int], tiles: list[ReadTile], warnings, opts: ReadOptions,
                 image_size: tuple[int, int]):
        self.active = np.array(active)
        self.tiles = tiles
        self.warnings = warnings
        self.opts = opts
        boxes = dets.xyxy[self.active].astype(np.float64)
        self.classes = dets.class_id[self.active].astype(int)
        self.probs = None if dets.class_probs is None else dets.class_probs[self.active]
        self.centers = (boxes[:, :2] + boxes[:, 2:]) / 2
        self.boxes = boxes
        self.cut = cut_by_frame(boxes, image_size)
        self.lay: Layout = build_layout(boxes, opts, self.cut)
        flowers = (dets.class_id == FLOWER) & (dets.confidence >= opts.min_confidence)
        self.flower_centers = (dets.xyxy[flowers, :2] + dets.xyxy[flowers, 2:]) / 2

    def tile_index(self, member: int) -> int:
        return int(self.active[member])

    def warn(self, code: str, message: str, members=()) -> None:
        self.warnings.append(ReadWarning(code, message, tuple(self.tile_index(m) for m in members)))

    def label(self, members) -> str:
        return " ".join(CLASS_NAMES[self.classes[m]] for m in members)

    def read(self) -> ReadHand:
        plan, core, groups = self._arrange()
        if not plan.consistent and self._reread_groups():
            # The tile count works out for no plan: a meld with a misread tile may be why. Plan again with the
            # runs that were no meld re-read as melds (only now: a stray run near the hand re-read as a meld could
            # otherwise win the plan over the right one).
            self.lay = build_layout(self.boxes, self.opts, self.cut)
            plan, core, groups = self._arrange()
        lay = self.lay
        for member, side in enumerate(lay.sideways):
            self.tiles[self.tile_index(member)].sideways = bool(side)
        for group in lay.groups:
            for m in group.members:
                self.tiles[self.tile_index(m)].row = group.row
        return self._finish(plan, groups)

    def _arrange(self) -> tuple[_Plan, Group, list[Group]]:
        """The best plan in the frame as laid out, or turned half round when the melds say so."""
        plan, core, groups = self._best_plan()
        if self._far_side_is_down(plan, core):
            # The melds lie on the camera's side of the row: the photo is upside down for the player, so their
            # right is the frame's left. Read again in the turned frame.
            self.lay = build_layout(self.boxes, self.opts, self.cut, turned=True)
            plan, core, groups = self._best_plan()
        return plan, core, groups

    def _best_plan(self) -> tuple[_Plan, Group, list[Group]]:
        lay = self.lay
        lay.groups = type_groups(lay.groups, self.classes, lay.sideways, self.opts)
        groups = self._attach_stacked(lay.groups)
        faces = [g for g in groups if any(self.classes[m] < N_KINDS for m in g.members)]
        candidates = [g for g in faces if not g.meldlike] or faces or list(groups)
        plans = [(self._plan(c, groups), c) for c in candidates]
        plan, core = max(plans, key=lambda pc: pc[0].rank(pc[1], lay.xy, lay.size))
        return plan, core, groups

    def _far_side_is_down(self, plan: _Plan, core: Group) -> bool:
        """Which side of the concealed row is the far one: melds lie beyond the row (docs/photo-layout.md), and an
        added kong's fourth tile lies beyond its claimed tile. True when these say the far side is the frame's
        +y (the photo turned more than a quarter turn)."""
        down = 0
        for group, start in plan.pieces:
            stop = dict(group.pieces)[start]
            for m in group.members[start:stop]:
                off = self._signed_offset(m, core)
                down += int(off > _IN_LINE) - int(off < -_IN_LINE)
            if start in group.stacked:
                down += 3 * int(np.sign(self._signed_offset(group.stacked[start], group)))
        return down > 0

    def _signed_offset(self, member: int, core: Group) -> float:
        """Distance from the core's row line in tile sizes, positive toward the frame's +y."""
        row = self.lay.rows[core.row]
        x, y = self.lay.xy[member]
        return float((y - row.slope * x - row.intercept) / np.hypot(1.0, row.slope) / self.lay.size[member])

    # --- 补杠 shown with the fourth tile lying on the claimed one ---------------------------------------------
    def _attach_stacked(self, groups: list[Group]) -> list[Group]:
        """A lone tile of a pung's kind lying right beside it across the row (on its claimed tile) makes it a 补杠."""
        lone = [g for g in groups if len(g.members) == 1]
        used: set[int] = set()
        for group in groups:
            for start, stop in group.pieces:
                members = group.members[start:stop]
                kinds = {int(self.classes[m]) for m in members}
                if stop - start != 3 or len(kinds) != 1:
                    continue
                for single in lone:
                    s = single.members[0]
                    if id(single) in used or int(self.classes[s]) not in kinds:
                        continue
                    off, _ = self._line_offset(s, group)
                    near = min(np.hypot(*(self.centers[s] - self.centers[t])) for t in members)
                    if off > _IN_LINE / 2 and near <= _STACKED * self.lay.size[s]:
                        group.stacked[start] = s
                        used.add(id(single))
                        break
        return [g for g in groups if id(g) not in used]

    # --- plans -------------------------------------------------------------------------------------------------
    def _region(self, core: Group, groups: list[Group]) -> list[Group]:
        """The groups chained to ``core`` by gaps under ``hand_distance`` tile sizes, without much smaller tiles.

        Sizes are compared link by link (each group with the one it is chained to): perspective shrinks a second row
        of melds far more than its neighbour row, so the core's size would cut it off."""
        size = self.lay.size
        pending = [g for g in groups if g is not core]
        region = [core]
        frontier = [core]
        while frontier:
            current = frontier.pop()
            local = float(np.median(size[current.members]))
            for group in list(pending):
                d = self.centers[group.members][:, None, :] - self.centers[current.members][None, :, :]
                near = float(np.hypot(d[..., 0], d[..., 1]).min()) <= self.opts.hand_distance * local
                if near and float(np.median(size[group.members])) >= self.opts.small_ratio * local:
                    pending.remove(group)
                    region.append(group)
                    frontier.append(group)
        return region

    def _line_offset(self, member: int, core: Group) -> tuple[float, float]:
        """(distance from the core's row line in tile sizes, position along the row)."""
        return abs(self._signed_offset(member, core)), float(self.lay.xy[member, 0])

    def _plan(self, core: Group, groups: list[Group]) -> _Plan:
        region = self._region(core, groups)
        xs = self.lay.xy[core.members, 0]
        lo, hi = float(xs.min()), float(xs.max())
        askew, right, left = [], [], []
        for group in region:
            if group is core or len(group.members) != 1 or group.meldlike:
                continue
            m = group.members[0]
            if self.classes[m] >= N_KINDS or not self._looks_like(m, core):
                continue  # a face-down or a turned (stray) tile is never the winning tile
            off, x = self._line_offset(m, core)
            if lo < x < hi and off <= _ASKEW:
                askew.append(m)
            elif off <= _IN_LINE and hi <= x <= hi + _APART * self.lay.size[m] and not self._flower_between(core, hi, x):
                right.append((x - hi, m))
            elif off <= _IN_LINE and lo - _APART * self.lay.size[m] <= x <= lo and not self._flower_between(core, x, lo):
                left.append((lo - x, m))
        apart = min(right)[1] if right else (min(left)[1] if left else None)
        pieces = [(g, start) for g in region if g is not core for start, _ in g.pieces]
        # Nearest first; a four-back kong later, as a stretch of wall can look like one; a kong showing one or three
        # backs (no way a kong is laid out, but a heap of loose tiles can read so) last.
        pieces.sort(key=lambda p: (self._odd_kong(p[0], p[1]), self._all_backs(p[0], p[1]),
                                   self._distance(p[0].members, core.members)))
        for k in range(len(pieces), -1, -1):
            need = 13 - 3 * k
            for extra in ([], askew) if askew else ([],):
                concealed = list(core.members) + extra
                n = len(concealed)
                if apart is not None and n == need:
                    return _Plan(concealed, apart, pieces[:k], region, True, extra, win_on_left=not right)
                if n == need + 1:
                    last = self._last(concealed)
                    rest = [m for m in concealed if m != last]
                    return _Plan(rest, last, pieces[:k], region, True, extra, win_in_row=True,
                                 apart_unused=apart is not None)
                if n == need and apart is None:
                    return _Plan(concealed, None, pieces[:k], region, True, extra)
        return _Plan(list(core.members), apart, pieces, region, False)

    def _flower_between(self, core: Group, x0: float, x1: float) -> bool:
        """A flower lies in line with the row between x0 and x1 (along the row): the gap there is the flower's place
        (flowers are not read as hand tiles), not a tile set apart."""
        if not len(self.flower_centers):
            return False
        row = self.lay.rows[core.row]
        x, y = self.lay.frame.to_frame(self.flower_centers).T
        off = np.abs(y - row.slope * x - row.intercept) / np.hypot(1.0, row.slope)
        return bool(((x0 < x) & (x < x1) & (off <= _IN_LINE * float(np.median(self.lay.size[core.members])))).any())

    def _looks_like(self, member: int, core: Group) -> bool:
        """The tile lies like the row's tiles: the same box shape (not turned), or about the same size (a flat
        tile beside a row stood on edge)."""
        aspect = float(np.median(self.lay.aspect[core.members]))
        size = float(np.median(self.lay.size[core.members]))
        return abs(self.lay.aspect[member] - aspect) <= _LIKE_DEG or 0.75 <= self.lay.size[member] / size <= 1.33

    def _odd_kong(self, group: Group, start: int) -> bool:
        stop = dict(group.pieces)[start]
        classes = [int(self.classes[m]) for m in group.members[start:stop]]
        return type_group(classes, self.opts.face_up_kong).code == "kong_face_down_count"

    def _all_backs(self, group: Group, start: int) -> bool:
        stop = dict(group.pieces)[start]
        return all(self.classes[m] == BACK for m in group.members[start:stop])

    def _distance(self, a: list[int], b: list[int]) -> float:
        d = self.centers[a][:, None, :] - self.centers[b][None, :, :]
        return float(np.hypot(d[..., 0], d[..., 1]).min())

    def _last(self, members: list[int]) -> int:
        return max(members, key=lambda m: self.lay.xy[m, 0])

    # --- roles, melds, checks ----------------------------------------------------------------------------------
    def _finish(self, plan: _Plan, groups: list[Group]) -> ReadHand:
        opts = self.opts
        if plan.askew:
            self.warn("tile_off_row", f"{self.label(plan.askew)} lies off the concealed row; counted in it", plan.askew)
        concealed = list(plan.concealed)
        win = plan.win
        if plan.win_in_row and opts.win_tile == "set_apart" and opts.win_tile_kind is None:
            self.warn("win_tile_not_set_apart", "no tile set apart: the right-most concealed tile read as the winning tile", [win])
        melds, unresolved, meld_members = self._read_melds(plan.pieces, concealed)
        rereading = self.probs is not None and opts.reread_tiles > 0 and not unresolved
        stray_backs = [m for m in concealed + ([win] if win is not None else []) if self.classes[m] >= N_KINDS]
        arranged = None
        if stray_backs and rereading:
            # a back in the concealed row is most often a face (a blank 白) the classifier took for one
            said = len(self.warnings)
            tried = self._win_convention(concealed, win)
            reread = self._reread(*tried, melds)
            if all(self.classes[m] < N_KINDS for m in stray_backs):
                arranged, melds, stray_backs, rereading = tried, reread, [], False
            else:
                del self.warnings[said:]
        if stray_backs:
            self.warn("face_down_outside_kong", "face-down tiles outside a kong are not counted", stray_backs)
            concealed = [m for m in concealed if m not in stray_backs]
            win = None if win in stray_backs else win
        concealed, win = arranged or self._win_convention(concealed, win)
        if rereading:
            melds = self._reread(concealed, win, melds)
        used = set(concealed) | set(meld_members) | ({win} if win is not None else set())
        in_region = {m for g in plan.region for m in g.members} | {s for g in plan.region for s in g.stacked.values()}
        near = sorted(m for m in in_region - used if m not in stray_backs)
        far = sorted(set(range(len(self.active))) - in_region - used)
        if near:
            self.warn("not_in_hand", f"{self.label(near)}: near the hand but fit nowhere in it; ignored", near)
        if far:
            self.warn("far_from_hand", f"{len(far)} tile(s) away from the hand ignored (discards?)", far)
        for m in concealed:
            self.tiles[self.tile_index(m)].group = "concealed"
        if win is not None:
            self.tiles[self.tile_index(win)].group = "win"
        concealed_kinds = [int(self.classes[m]) for m in concealed]
        win_kind = int(self.classes[win]) if win is not None else None
        self._check(concealed_kinds, win_kind, melds, unresolved)
        return ReadHand(concealed_kinds, melds, win_kind, self.tiles, self.warnings, unresolved)

    def _win_convention(self, concealed: list[int], win: int | None) -> tuple[list[int], int | None]:
        opts = self.opts
        pool = concealed + ([win] if win is not None else [])
        if opts.win_tile == "none":
            concealed, win = pool, None
        elif opts.win_tile == "last" and pool:
            win = self._last(pool)
            concealed = [m for m in pool if m != win]
        if opts.win_tile_kind is not None:
            kind = kind_of(opts.win_tile_kind)
            matches = [m for m in pool if self.classes[m] == kind]
            if not matches:
                # the row's last tile can be a back here (a 白 read as one, not yet re-read): it has no tile name
                taken = TILE_NAMES[self.classes[win]] if win is not None and self.classes[win] < N_KINDS else "a back"
                used = (f"{taken} was taken as the winning tile, as the layout shows it"
                        if win is not None else "no winning tile was taken")
                self.warn("win_tile_not_found",
                          f"the named winning tile {TILE_NAMES[kind]} is not among the concealed tiles: {used}",
                          [win] if win is not None else ())
            else:
                win = win if win is not None and self.classes[win] == kind else self._last(matches)
                concealed = [m for m in pool if m != win]
        return sorted(concealed, key=lambda m: self.lay.xy[m, 0]), win

    def _read_melds(self, pieces: list[tuple[Group, int]], concealed: list[int]):
        lay = self.lay
        ordered = sorted(pieces, key=lambda p: (p[0].row, lay.xy[p[0].members[p[1]], 0]))
        named = [kind_of(k) for k in self.opts.concealed_kong_kinds]
        melds: list[Meld] = []
        unresolved = 0
        used: list[int] = []
        for group, start in ordered:
            stop = dict(group.pieces)[start]
            members = group.members[start:stop]
            stacked = group.stacked.get(start)
            classes = [int(self.classes[m]) for m in members]
            kind = named.pop(0) if named and len(members) == 4 and all(c == BACK for c in classes) else None
            reading = type_group(classes, self.opts.face_up_kong, kind)
            for m, cls in zip(members, reading.classes):
                self.tiles[self.tile_index(m)].cls = CLASS_NAMES[cls]
            if reading.code:
                self.warn(reading.code, reading.message, members)
            if reading.meld is None and not reading.needs_kind:
                concealed.extend(members)  # cannot happen for a typed piece; kept so no tile is lost
                continue
            used.extend(members)
            if reading.needs_kind:
                unresolved += 1
                for m in members:
                    self.tiles[self.tile_index(m)].group = "meld"
                continue
            meld = reading.meld
            if stacked is not None:
                meld = Meld(MeldType.KONG_ADDED, meld.tiles + (meld.tiles[0],))
                members = members + [stacked]
                used.append(stacked)
            meld = self._override(len(melds), meld, members)
            for m in members:
                tile = self.tiles[self.tile_index(m)]
                tile.group, tile.meld = "meld", len(melds)
            melds.append(meld)
        if named:
            self.warn("unused_kong_kinds", f"{len(named)} named concealed kong kind(s) had no four-back kong to go to")
        for index in sorted(i for i in self.opts.meld_types if i >= len(melds)):  # a typo would pass unseen
            self.warn("meld_type_rejected", f"meld {index}: no such meld (the photo shows {len(melds)})")
        return melds, unresolved, used

    def _reread_groups(self) -> bool:
        """Each run of 3 or 4 touching tiles that types as no meld (one tile of a pung misread) re-read as the
        likeliest pung, chow or kong, changing at most two of its tiles: left as read, the whole meld fits nowhere
        in the hand. Whether any run was re-read."""
        if self.probs is None or not self.opts.reread_tiles:
            return False
        reread = False
        for group in self.lay.groups:
            classes = [int(self.classes[m]) for m in group.members]
            if len(classes) not in (3, 4):
                continue
            reading = type_group(classes, self.opts.face_up_kong)
            if reading.meld is not None or reading.needs_kind:
                continue
            found = cheapest_meld(self.probs[group.members], classes)
            if found is None:
                continue
            changed = [(m, new) for m, old, new in zip(group.members, classes, found[0]) if old != new]
            if len(changed) > min(_GROUP_REREAD, self.opts.reread_tiles):
                continue
            before, said = self.label(group.members), []
            for m, new in changed:
                said.append(f"{CLASS_NAMES[self.classes[m]]} as {CLASS_NAMES[new]} ({float(self.probs[m][new]):.0%})")
                self._set_class(m, new)
            self.warn("meld_reread", f"{before} was no meld as read; re-read {', '.join(said)} "
                      "(the classifier's next choice), which makes it one: check these tiles", [m for m, _ in changed])
            reread = True
        return reread

    def _set_class(self, member: int, kind: int) -> None:
        """Re-read one tile: the new class, its confidence scaled by p_new / p_old, what the detector said kept."""
        tile = self.tiles[self.tile_index(member)]
        if tile.detected_conf is None:
            tile.detected_conf = tile.conf
        tile.conf *= float(self.probs[member][kind] / max(self.probs[member][self.classes[member]], 1e-9))
        tile.cls = CLASS_NAMES[kind]
        tile.choices = tuple(CLASS_NAMES[k] for k in likely_choices(self.probs[member], kind))
        self.classes[member] = kind

    def _reread(self, concealed: list[int], win: int | None, melds: list[Meld]) -> list[Meld]:
        """A hand that does not win re-read as the likeliest winning one within opts.reread_tiles changes
        (vision.normalize.reread); the tiles changed get the new class, their confidence scaled by p_new / p_old,
        and a reread_to_win warning. Nothing changes when no such reading exists; a concealed tile read as a back
        must change."""
        member_of = {self.tile_index(m): m for m in range(len(self.active))}
        units: list[Unit] = []
        owners: list[list[int]] = []
        for m in concealed + ([win] if win is not None else []):
            kind = int(self.classes[m])
            named_win = m == win and self.opts.win_tile_kind is not None
            units.append(Unit(kind, () if named_win else tile_options(self.probs[m], kind)))
            owners.append([m])
        for index, meld in enumerate(melds):
            faces = [member_of[i] for i, t in enumerate(self.tiles)
                     if t.group == "meld" and t.meld == index and t.cls != "back"]
            if meld.type is not MeldType.CHOW and faces:
                units.append(Unit(meld.kind, meld_options(self.probs[faces], meld.kind), meld=index))
                owners.append(faces)
        changes = best_winning_reading(units, melds, self.opts.reread_tiles)
        if not changes:
            return melds
        melds = list(melds)
        said, changed = [], []
        for index, option in sorted(changes.items()):
            unit = units[index]
            for m in owners[index]:
                self._set_class(m, option.kind)
                changed.append(m)
            if unit.meld is not None:
                meld = melds[unit.meld]
                melds[unit.meld] = Meld(meld.type, (option.kind,) * len(meld.tiles), meld.from_seat)
                said.append(f"{meld.type.value} {TILE_NAMES[unit.kind]} as {TILE_NAMES[option.kind]}")
            else:
                p = float(self.probs[owners[index][0]][option.kind])
                said.append(f"{CLASS_NAMES[unit.kind]} as {TILE_NAMES[option.kind]} ({p:.0%})")
        self.warn(
            "reread_to_win",
            f"the hand as read does not win; re-read {', '.join(said)} (the classifier's next choice), which makes "
            "it win: check these tiles",
            changed,
        )
        return melds

    def _override(self, index: int, meld: Meld, members: list[int]) -> Meld:
        wanted = self.opts.meld_types.get(index)
        if wanted is None or wanted == meld.type.value:
            return meld
        try:
            switched = Meld(MeldType(wanted), meld.tiles)
        except HandError as exc:
            self.warn("meld_type_rejected", f"meld {index}: {exc}", members)
            return meld
        indices = {self.tile_index(m) for m in members}
        self.warnings[:] = [w for w in self.warnings if not (w.code == "kong_type_assumed" and set(w.tiles) <= indices)]
        return switched

    def _check(self, concealed: list[int], win: int | None, melds: list[Meld], unresolved: int) -> None:
        hand = [i for i, t in enumerate(self.tiles) if t.group in ("concealed", "win", "meld")]
        low = [i for i in hand if self.tiles[i].conf < self.opts.low_confidence]
        if low:
            self.warnings.append(ReadWarning("low_confidence", f"{len(low)} tile(s) read with low confidence: check them", tuple(low)))
        if win is None and self.opts.win_tile != "none":
            self.warnings.append(ReadWarning(
                "no_win_tile", "no winning tile found: set it apart at the right end of the concealed row, or name it"))
        n_melds = len(melds) + unresolved
        expected = 13 - 3 * n_melds
        if len(concealed) != expected:
            kongs = sum(m.is_kong for m in melds) + unresolved
            total = len(concealed) + (win is not None) + sum(len(m.tiles) for m in melds) + 4 * unresolved
            if self.opts.win_tile == "none":  # a 13-tile hand was asked for: no winning tile to count
                whole = f"a 13-tile hand has {13 + kongs} ({expected} concealed"
            else:
                whole = f"a winning hand has {14 + kongs} ({expected} concealed plus the winning tile"
            self.warnings.append(ReadWarning(
                "wrong_tile_count",
                f"{total} tiles read with {n_melds} meld(s) and {kongs} kong(s): {whole}; "
                f"{len(concealed)} concealed read)",
            ))
        counts = Counter(concealed + ([win] if win is not None else []))
        for meld in melds:
            counts.update(meld.tiles)
        for kind, count in sorted(counts.items()):
            if count > COPIES_PER_KIND:
                self.warnings.append(ReadWarning(
                    "too_many_copies", f"{count} copies of {TILE_NAMES[kind]} read: a set has {COPIES_PER_KIND}"))
