"""Re-reading (vision.normalize.reread) on photos of hands that do not win: how often does it make one win?

The product expects photos of winning hands, and a hand as read that does not win is re-read from the classifier's
runner-up readings. benchmarks/normalizer.py measures what that mends on winning hands; this measures the other
side, on hands that truly do not win. The generator draws no 14-tile hand that does not win, so they are made from
its winning hands: generated photos are read by the model, and in each hand read right (it wins, the count is
right) one concealed tile's class probabilities are replaced by those of a tile from another photo, read as another
face (real classifier output, only moved). Where the hand then no longer wins, it is a photo of a non-winning
hand with the model's own doubts; the share re-read into a winning hand is the false-win rate.

    .venv/bin/python benchmarks/reread.py [--photos 300] [--seed 2026] [--trials 3] [--model models/current]

Writes benchmarks/results/reread.json and reread.md.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
from collections import Counter
from datetime import datetime, timezone
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from scoring.hand import HandError  # noqa: E402
from scoring.shapes import is_complete  # noqa: E402
from scoring.tiles import N_KINDS  # noqa: E402
from vision.detections import Detections  # noqa: E402
from vision.normalize import ReadOptions, read_hand  # noqa: E402
from vision.normalize.reread import WARNING_CODES as REREAD_WARNINGS  # noqa: E402
from vision.synth.scene import SynthOptions, make_sample  # noqa: E402

PLAIN = ReadOptions(reread_tiles=0)


def wins(read) -> bool:
    closed = read.concealed + ([read.win_tile] if read.win_tile is not None else [])
    try:
        return is_complete(closed, read.melds)
    except HandError:
        return False


def detected_photos(model: Path, photos: int, seed: int) -> list[tuple[Detections, tuple[int, int]]]:
    from vision.detector import TileDetector

    detector = TileDetector(model)
    out = []
    for layout in ("any", "conventional"):
        options = SynthOptions(layout=layout)
        for index in range(photos):
            sample = make_sample(seed, index, options)
            out.append((detector.detect(sample.image), sample.image.shape[1::-1]))
            print(f"\r{layout} {index + 1}/{photos}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    return out


def false_wins(photos: list[tuple[Detections, tuple[int, int]]], trials: int, seed: int) -> dict:
    rows = np.concatenate([dets.class_probs for dets, _ in photos])
    faces = rows[rows[:, :N_KINDS].max(1) == rows.max(1)]  # rows read as a face
    rng = np.random.default_rng(seed)
    count = Counter()
    for dets, size in photos:
        read = read_hand(dets, size, PLAIN)
        if not wins(read):
            continue
        count["winning_hands"] += 1
        concealed = [i for i, tile in enumerate(read.tiles) if tile.group == "concealed"]
        for _ in range(trials):
            tile = int(rng.choice(concealed))
            probs = dets.class_probs.copy()
            probs[tile] = faces[int(rng.integers(len(faces)))]
            moved = Detections(dets.xyxy, dets.confidence, probs.argmax(1), probs)
            plain = read_hand(moved, size, PLAIN)
            if wins(plain) or "wrong_tile_count" in plain.warning_codes:
                continue  # the moved reading still wins (or broke the count): not a photo of a non-winning hand
            count["non_winning"] += 1
            reread = read_hand(moved, size)
            count["reread_to_a_win"] += wins(reread) and bool(REREAD_WARNINGS & set(reread.warning_codes))
            count["warned"] += bool(REREAD_WARNINGS & set(reread.warning_codes))
    return dict(count)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--photos", type=int, default=300, help="photos per layout stream")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--trials", type=int, default=3, help="moved tiles per winning hand")
    parser.add_argument("--model", type=Path, default=REPO / "models" / "current")
    parser.add_argument("--out", type=Path, default=REPO / "benchmarks" / "results")
    args = parser.parse_args()
    result = false_wins(detected_photos(args.model, args.photos, args.seed), args.trials, args.seed)
    meta = json.loads((args.model / "meta.json").read_text())
    result.update({"model": f"{args.model.name} version {meta.get('version')}", "photos_per_stream": args.photos,
                   "seed": args.seed, "trials": args.trials, "date": datetime.now(timezone.utc).isoformat(timespec="seconds"),
                   "machine": platform.platform()})
    rate = result.get("reread_to_a_win", 0) / max(result.get("non_winning", 0), 1)
    result["false_win_rate"] = round(rate, 4)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "reread.json").write_text(json.dumps(result, indent=1) + "\n")
    lines = [
        "# Re-reading on hands that do not win", "",
        f"{result['date']}, {result['model']}, generated photos (drawn tile sets) of seed {args.seed}, "
        f"{args.photos} per layout stream; {args.trials} moved tiles per winning hand (benchmarks/reread.py).", "",
        "| hands read as winning | made non-winning by one moved tile | re-read into a winning hand | false-win rate |",
        "|---|---|---|---|",
        f"| {result.get('winning_hands', 0)} | {result.get('non_winning', 0)} | {result.get('reread_to_a_win', 0)} "
        f"| {rate:.1%} |", "",
        "A moved tile carries another tile's real class probabilities (read as another face), so the hand keeps the",
        "model's own doubts. Every hand re-read into a win carries the `reread_to_win` (or `meld_reread`) warning",
        "naming the changed tiles.",
    ]
    (args.out / "reread.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
