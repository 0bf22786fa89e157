"""Row fitting's batched run search (vision.normalize.rows._best_run / _runs) picks what the one-line-at-a-time search
it replaced picked: the same line and the same run, on scattered boxes, rows with gaps and grids full of exact ties."""

from __future__ import annotations

import numpy as np
import pytest

from vision.normalize import rows
from vision.normalize.rows import _along, _best_run, _run_of, _runs


def one_at_a_time(score, hits, off, pts, slopes, reach):
    """The search as it was written before it was batched (session 38)."""
    best, best_score, best_run = -1, -np.inf, None
    for c in np.argsort(-score, kind="stable"):
        if score[c] <= best_score:
            break
        run = _run_of(hits[c], _along(pts, float(slopes[c])), reach)
        run_score = run.sum() - off[c, run].sum() * 1e-3
        if run_score > best_score:
            best, best_score, best_run = int(c), run_score, run
    return best, best_run


def candidate_lines(xy: np.ndarray, tol: np.ndarray):
    """fit_rows' candidates for a first row: the line through every pair."""
    i, j = np.triu_indices(len(xy), k=1)
    dx, dy = xy[j, 0] - xy[i, 0], xy[j, 1] - xy[i, 1]
    ok = (np.abs(dy) <= rows._MAX_SLOPE * np.abs(dx)) & (dx != 0)
    i, slopes = i[ok], dy[ok] / dx[ok]
    intercepts = xy[i, 1] - slopes * xy[i, 0]
    resid = np.abs(xy[None, :, 1] - slopes[:, None] * xy[None, :, 0] - intercepts[:, None])
    resid /= np.hypot(1.0, slopes)[:, None]
    hits = resid < tol[None, :]
    score = hits.sum(axis=1) - np.where(hits, resid / tol[None, :], 0).sum(axis=1) * 1e-3
    return score, hits, resid / tol[None, :], slopes


def layout(kind: str, rng: np.random.Generator) -> np.ndarray:
    n = int(rng.integers(2, 110))
    if kind == "scatter":
        return rng.uniform(0, 2000, (n, 2))
    if kind == "rows with gaps":
        x = np.cumsum(rng.choice([40, 40, 40, 60, 300], n)) % 1500
        return np.stack([x, rng.choice([0, 100, 160, 400], n) + rng.normal(0, 4, n)], axis=1)
    return np.round(rng.uniform(0, 20, (n, 2))) * 40  # a grid: many lines tie exactly


@pytest.mark.parametrize("kind", ["scatter", "rows with gaps", "grid"])
def test_the_batched_search_picks_the_same_line_and_run(kind: str) -> None:
    rng = np.random.default_rng(["scatter", "rows with gaps", "grid"].index(kind))
    for _ in range(60):
        xy = layout(kind, rng)
        size = rng.uniform(30, 50, len(xy))
        score, hits, off, slopes = candidate_lines(xy, 0.4 * size)
        if not len(score):
            continue
        best, run = _best_run(score, hits, off, xy, slopes, 5 * size)
        expected_best, expected_run = one_at_a_time(score, hits, off, xy, slopes, 5 * size)
        assert best == expected_best
        assert np.array_equal(run, expected_run)


def test_runs_cut_every_line_as_run_of_does() -> None:
    rng = np.random.default_rng(5)
    xy = layout("rows with gaps", rng)
    size = rng.uniform(30, 50, len(xy))
    score, hits, _, slopes = candidate_lines(xy, 0.4 * size)
    runs = _runs(hits, xy, slopes, 5 * size)
    for c in range(len(hits)):
        assert np.array_equal(runs[c], _run_of(hits[c], _along(xy, float(slopes[c])), 5 * size))
