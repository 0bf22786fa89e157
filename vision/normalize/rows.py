"""Rows as fitted lines and groups as gap-separated runs along them.

Perspective keeps a straight row straight but turns rows by different angles, so each row gets its own line:
a RANSAC over tile pairs (every pair is a candidate, so the result is deterministic) picks the line with the most
tiles near it, a least-squares refit settles it, its tiles leave the pool, and the next row is fitted. Given a
``reach``, a line's tiles count as one row only while each lies within reach of the next along it: a row of melds
and a row of discards further off, nearly parallel, were otherwise one slanted line through part of each.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

_MAX_SLOPE = np.tan(np.radians(25.0))  # a row leans at most this much from the dominant direction
_REFITS = 2


@dataclass(frozen=True)
class Row:
    members: tuple[int, ...]  # tile indices sorted along the row
    slope: float
    intercept: float  # y = slope * x + intercept in frame coordinates

    def distance_to(self, points: np.ndarray) -> np.ndarray:
        """Perpendicular distance of each (x, y) point to the row's line."""
        return _distances(np.atleast_2d(points), self.slope, self.intercept)


def _line_through(points: np.ndarray) -> tuple[float, float]:
    if len(points) < 2 or np.ptp(points[:, 0]) < 1e-9:
        return 0.0, float(np.mean(points[:, 1]))
    slope, intercept = np.polyfit(points[:, 0], points[:, 1], 1)
    slope = float(np.clip(slope, -_MAX_SLOPE, _MAX_SLOPE))
    return slope, float(np.mean(points[:, 1] - slope * points[:, 0]))


def _distances(points: np.ndarray, slope: float, intercept: float) -> np.ndarray:
    return np.abs(points[:, 1] - slope * points[:, 0] - intercept) / np.hypot(1.0, slope)


def _along(points: np.ndarray, slope: float | np.ndarray) -> np.ndarray:
    """Positions of the points along a line of ``slope`` (along each of several lines: a column of slopes)."""
    return (points[:, 0] + slope * points[:, 1]) / np.hypot(1.0, slope)


def _run_of(hits: np.ndarray, along: np.ndarray, reach: np.ndarray | None, within: np.ndarray | None = None):
    """The tiles of ``hits`` (a mask) that form one run along the line: consecutive ones (by ``along``) no further
    apart than their mean ``reach``. The longest run, or the one holding most of ``within`` (the previous inliers);
    ``hits`` itself without a reach."""
    if reach is None or hits.sum() < 2:
        return hits
    order = np.flatnonzero(hits)
    order = order[np.argsort(along[order], kind="stable")]
    apart = np.diff(along[order]) > (reach[order[1:]] + reach[order[:-1]]) / 2
    runs = np.split(order, np.flatnonzero(apart) + 1)
    key = (lambda run: (within[run].sum(), len(run))) if within is not None else len
    run = max(runs, key=key)
    out = np.zeros(len(hits), dtype=bool)
    out[run] = True
    return out


def fit_rows(xy: np.ndarray, tolerance: np.ndarray, reach: np.ndarray | None = None) -> list[Row]:
    """Partition tiles (frame coordinates ``xy``) into rows, longest first; a tile is on a line when its centre is
    within its ``tolerance`` (pixels) of it, and in its row while within ``reach`` (pixels) of its neighbour along
    the line (no limit without one)."""
    remaining = np.arange(len(xy))
    rows: list[Row] = []
    while len(remaining):
        pts = xy[remaining]
        tol = tolerance[remaining]
        near = None if reach is None else reach[remaining]
        inliers = np.zeros(len(remaining), dtype=bool)
        inliers[0] = True
        slope, intercept = 0.0, float(pts[0, 1])
        if len(remaining) > 1:
            i, j = np.triu_indices(len(remaining), k=1)
            dx = pts[j, 0] - pts[i, 0]
            dy = pts[j, 1] - pts[i, 1]
            # Two tiles with one centre (boxes crossing, or two empty boxes at a point) define no line: their 0/0
            # slope would make a line holding no tile, which never leaves the pool.
            ok = (np.abs(dy) <= _MAX_SLOPE * np.abs(dx)) & (dx != 0)
            if ok.any():
                i, j, dx, dy = i[ok], j[ok], dx[ok], dy[ok]
                slopes = dy / dx
                intercepts = pts[i, 1] - slopes * pts[i, 0]
                resid = np.abs(pts[None, :, 1] - slopes[:, None] * pts[None, :, 0] - intercepts[:, None])
                resid /= np.hypot(1.0, slopes)[:, None]
                hits = resid < tol[None, :]
                score = hits.sum(axis=1) - np.where(hits, resid / tol[None, :], 0).sum(axis=1) * 1e-3
                best = int(np.argmax(score))
                inliers = hits[best]
                if near is not None:
                    best, inliers = _best_run(score, hits, resid / tol[None, :], pts, slopes, near)
                slope, intercept = float(slopes[best]), float(intercepts[best])
                for _ in range(_REFITS):
                    slope, intercept = _line_through(pts[inliers])
                    refit = _distances(pts, slope, intercept) < tol
                    refit = _run_of(refit, _along(pts, slope), near, within=inliers)
                    if refit.sum() < 2:
                        break
                    inliers = refit
        members = remaining[inliers]
        members = members[np.argsort(xy[members, 0])]
        rows.append(Row(tuple(int(m) for m in members), slope, intercept))
        remaining = remaining[~inliers]
    return rows


def _best_run(score: np.ndarray, hits: np.ndarray, off: np.ndarray, pts: np.ndarray, slopes: np.ndarray,
              reach: np.ndarray) -> tuple[int, np.ndarray]:
    """The candidate line whose longest run (as ``_run_of`` finds it) scores best, scored as ``fit_rows`` scores a
    line, and that run. Candidates are looked at best score first: a run scores at most its line's score, so the
    search stops at the first line that cannot win. They are cut to their runs a batch at a time (``_runs``): one at
    a time, photos full of scattered boxes, where most lines must be looked at, took 4x as long."""
    best, best_score, best_run = -1, -np.inf, np.zeros(hits.shape[1], dtype=bool)
    ranked = np.argsort(-score, kind="stable")
    start, batch = 0, 8  # most photos settle within the first few candidates
    while start < len(ranked) and score[ranked[start]] > best_score:
        candidates = ranked[start : start + batch]
        start, batch = start + batch, min(2 * batch, 256)
        runs = _runs(hits[candidates], pts, slopes[candidates], reach)
        run_scores = runs.sum(axis=1) - np.where(runs, off[candidates], 0).sum(axis=1) * 1e-3
        for k, c in enumerate(candidates):
            if score[c] <= best_score:
                break
            if run_scores[k] > best_score:
                best, best_score, best_run = int(c), run_scores[k], runs[k]
    return best, best_run


def _runs(hits: np.ndarray, pts: np.ndarray, slopes: np.ndarray, reach: np.ndarray) -> np.ndarray:
    """``_run_of`` (the longest run, the first along the line on a tie) of each line's ``hits``, all lines at once."""
    lines, count = hits.shape
    along = _along(pts, slopes[:, None])  # (lines, count)
    order = np.argsort(np.where(hits, along, np.inf), axis=1, kind="stable")  # a line's hits first, along it
    ranked = np.take_along_axis(along, order, axis=1)
    near = reach[order]
    in_hits = np.take_along_axis(hits, order, axis=1)
    apart = np.diff(ranked, axis=1) > (near[:, 1:] + near[:, :-1]) / 2  # past the hits: runs of length 0
    run_id = np.concatenate([np.zeros((lines, 1), int), np.cumsum(apart, axis=1)], axis=1)
    cell = (np.arange(lines)[:, None] * count + run_id).ravel()
    lengths = np.bincount(cell, weights=in_hits.ravel(), minlength=lines * count).reshape(lines, count)
    in_run = (run_id == lengths.argmax(axis=1)[:, None]) & in_hits
    runs = np.zeros_like(hits)
    np.put_along_axis(runs, order, in_run, axis=1)
    return runs


def smooth_sizes(members: tuple[int, ...], xy: np.ndarray, size: np.ndarray, sideways: np.ndarray) -> np.ndarray:
    """Tile size along a row as a straight-line fit over its upright tiles: perspective changes it smoothly, while
    one tile's box (turned sideways, knocked askew) would add noise."""
    m = np.asarray(members, dtype=int)
    upright = m[~sideways[m]]
    basis = upright if len(upright) >= 3 else m
    if len(basis) < 3 or np.ptp(xy[basis, 0]) < 1e-6:
        return np.full(len(m), float(np.median(size[basis])))
    slope, intercept = np.polyfit(xy[basis, 0], size[basis], 1)
    fitted = slope * xy[m, 0] + intercept
    return np.clip(fitted, 0.5 * size[basis].min(), 2.0 * size[basis].max())


def row_spacings(members: tuple[int, ...], xy: np.ndarray, unit: np.ndarray) -> np.ndarray:
    """Centre-to-centre distances of consecutive tiles of a row (sorted along), in ``unit`` (one per member).

    Centres are not moved by the shear that perspective gives a box, so touching tiles keep one spacing all along a
    row; only a gap (or a tile turned sideways, which is longer) makes it bigger.
    """
    m = np.asarray(members, dtype=int)
    if len(m) < 2:
        return np.zeros(0)
    step = np.hypot(*(xy[m[1:]] - xy[m[:-1]]).T)
    return step / ((unit[1:] + unit[:-1]) / 2.0)


def local_reference(per_width: np.ndarray, fallback: float, window: int = 3) -> np.ndarray:
    """For each spacing, a low percentile of its neighbours' spacings within ``window`` (itself left out; low, as
    the gaps between melds are frequent in a row of melds, and a claimed tile seen near 45 degrees is not known
    to be sideways, so its longer spacing is not allowed for), held within 15-20 % of the photo-wide ``fallback``
    (a single neighbour counts: a far row's flatter boxes widen its spacing in tile sizes); the fallback alone
    where a row has one spacing."""
    out = np.full(len(per_width), fallback)
    for k in range(len(per_width)):
        around = np.r_[per_width[max(0, k - window):k], per_width[k + 1:k + 1 + window]]
        if len(around) >= 1:
            out[k] = float(np.clip(np.percentile(around, 20), 0.85 * fallback, 1.2 * fallback))
    return out


def split_by_gaps(members: tuple[int, ...], spacings: np.ndarray, limits: np.ndarray) -> list[list[int]]:
    """Cut a row (sorted along) wherever the spacing of two tiles exceeds its limit."""
    if not members:
        return []
    groups: list[list[int]] = [[members[0]]]
    for cur, spacing, limit in zip(members[1:], spacings, limits):
        if spacing > limit:
            groups.append([cur])
        else:
            groups[-1].append(cur)
    return groups
