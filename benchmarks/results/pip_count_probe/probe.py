"""Can a tile's pips be counted by classical image processing, as a check that knows no tile set (session 38)?

Ground-truth crops of the dot (1p-9p) and bamboo (2s-9s) tiles of the hold-out proxy's three held-out sets (cmd val's
real photos, gleitz's and ffalt's generated ones), each box cut as labelled and stood upright at 96 x 128. The face is
the largest region of the face's colour (the brightest part of the crop's centre); the pips are the holes in it,
counted when at least 0.3 of the largest holes' area. Prints, for each count, how often the tile has that number:
the precision a "count check" would have. Run from the repository root (needs ../shared and the proxy's generated
sets in work/s24, made by benchmarks/results/candidate_0.18.6/folds.sh):

    .venv/bin/python benchmarks/results/pip_count_probe/probe.py
"""
import sys
from collections import Counter, defaultdict
from pathlib import Path

import cv2
import numpy as np

REPO = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(REPO))

from scoring.tiles import CLASS_NAMES  # noqa: E402
from vision import evaluate as ev  # noqa: E402
from vision.twostage.crops import read_rgb  # noqa: E402

SETS = {"cmd": REPO / "datasets/cmd.yaml", "gleitz": REPO / "work/s24/synth_gleitz/data.yaml",
        "ffalt": REPO / "work/s24/synth_ffalt/data.yaml"}
SUITED = {f"{n}p" for n in range(1, 10)} | {f"{n}s" for n in range(2, 10)}


def crops_of(config: Path):
    for item in ev.labelled_images(config):
        rgb = None
        for class_id, box in zip(item.class_id, item.xyxy):
            name = CLASS_NAMES[int(class_id)]
            if name not in SUITED:
                continue
            rgb = read_rgb(item.path) if rgb is None else rgb
            x1, y1, x2, y2 = (int(round(v)) for v in box)
            patch = rgb[max(y1, 0):y2, max(x1, 0):x2]
            if patch.size:
                patch = np.rot90(patch) if patch.shape[1] > 1.15 * patch.shape[0] else patch
                yield name, cv2.resize(np.ascontiguousarray(patch), (96, 128), interpolation=cv2.INTER_AREA)


def count_pips(rgb: np.ndarray, thresh: float = 30, rel_area: float = 0.3) -> int:
    h, w = rgb.shape[:2]
    lab = cv2.cvtColor(cv2.GaussianBlur(rgb, (3, 3), 0), cv2.COLOR_RGB2LAB).astype(np.float32)
    centre = lab[h // 4: 3 * h // 4, w // 4: 3 * w // 4].reshape(-1, 3)
    face = np.median(centre[centre[:, 0] >= np.percentile(centre[:, 0], 70)], axis=0)
    near = (np.linalg.norm(lab - face, axis=2) < thresh).astype(np.uint8)
    n, components, stats, _ = cv2.connectedComponentsWithStats(near, connectivity=4)
    if n <= 1:
        return 0
    facemask = (components == 1 + np.argmax(stats[1:, cv2.CC_STAT_AREA])).astype(np.uint8)
    contours, hierarchy = cv2.findContours(facemask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    if hierarchy is None:
        return 0
    holes = sorted((cv2.contourArea(c) for c, h in zip(contours, hierarchy[0]) if h[3] >= 0), reverse=True)
    holes = [a for a in holes if a >= 8]
    if not holes:
        return 0
    reference = np.median(holes[:3])
    return sum(a >= rel_area * reference for a in holes)


if __name__ == "__main__":
    for name, config in SETS.items():
        by_count = {"p": defaultdict(Counter), "s": defaultdict(Counter)}
        for label, crop in crops_of(config):
            by_count[label[-1]][count_pips(crop)][int(label[0])] += 1
        for suit, counts in by_count.items():
            right = sum(counts[k][k] for k in counts)
            total = sum(sum(c.values()) for c in counts.values())
            precision = " ".join(f"{k}:{counts[k][k]}/{sum(counts[k].values())}" for k in sorted(counts) if k)
            print(f"{name} {suit}: counted right {right}/{total}; count k -> tile k: {precision}", flush=True)
