"""The normalizer on generated photos: how often the hand read equals the true hand.

Two runs on the same photos (vision.synth.make_sample, deterministic by seed):
- ``true boxes``: read_hand on the labelled boxes of the photo (every labelled tile: hand, discards, clutter), so
  only the grouping is measured (issue 4 target: >= 99 % of 500 photos);
- ``detector``: read_hand on the shipped model's detections of the rendered photo (skipped without a model).
Photos whose hand is partly out of frame are counted apart (no reader can recover them). ``exact`` needs every meld
type right; ``decidable`` forgives what the photo cannot show (vision.normalize.evaluate).

    .venv/bin/python benchmarks/normalizer.py [--photos 500] [--seed 2026] [--model models/current | --no-model]

Writes benchmarks/results/normalizer.json and normalizer.md.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from collections import Counter
from datetime import datetime, timezone
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from scoring.tiles import format_compact  # noqa: E402
from vision.detections import Detections  # noqa: E402
from vision.normalize import read_hand  # noqa: E402
from vision.normalize.evaluate import compare  # noqa: E402
from vision.synth.scene import make_sample  # noqa: E402


def truth_of(sample):
    hand = sample.hand
    melds = [(m.type, m.tiles) for m in hand.melds]
    sideways = Counter(t.meld for t in sample.tiles if t.role == "meld" and t.sideways)
    stacked = sum(1 for i, m in enumerate(hand.melds) if m.type == "kong_added" and sideways[i] >= 2)
    return hand.concealed, melds, hand.win_tile, stacked


def true_boxes(sample) -> Detections:
    tiles = sample.tiles
    return Detections(np.array([t.box for t in tiles]).reshape(-1, 4), np.ones(len(tiles)), np.array([t.cls for t in tiles]))


def run(photos: int, seed: int, detector, report=None) -> dict:
    """Read ``photos`` generated photos; ``report(partial, done)`` is called every 50 photos."""
    tally = {"true_boxes": Counter(), "detector": Counter()}
    failures = {"true_boxes": [], "detector": []}
    ms = {"read": [], "detect": []}
    for index in range(photos):
        sample = make_sample(seed, index)
        height, width = sample.image.shape[:2]
        concealed, melds, win, stacked = truth_of(sample)
        in_frame = sample.scene["hand_tiles_labelled"]
        sources = {"true_boxes": true_boxes(sample)}
        if detector is not None:
            start = time.perf_counter()
            sources["detector"] = detector.detect(sample.image)
            ms["detect"].append((time.perf_counter() - start) * 1000)
        for name, dets in sources.items():
            start = time.perf_counter()
            read = read_hand(dets, (width, height))
            ms["read"].append((time.perf_counter() - start) * 1000)
            count = tally[name]
            count["photos"] += 1
            if not in_frame:
                count["hand_cut_by_frame"] += 1
                continue
            match = compare(read, concealed, melds, win, stacked)
            count["scored"] += 1
            count["exact"] += match.exact
            count["decidable"] += match.decidable
            if not match.decidable:
                failures[name].append({
                    "index": index, "roll": sample.scene["roll"], "tilt": sample.scene["tilt"],
                    "want": {"concealed": format_compact(concealed), "melds": [[t, format_compact(k)] for t, k in melds],
                             "win": format_compact([win]) if win is not None else None},
                    "got": {k: read.to_json()[k] for k in ("concealed", "melds", "win_tile")},
                    "warnings": read.warning_codes,
                })
        print(f"\r{index + 1}/{photos}", end="", file=sys.stderr, flush=True)
        if report is not None and (index + 1) % 50 == 0 and index + 1 < photos:
            report(_summary(tally, failures, ms), index + 1)
    print(file=sys.stderr)
    return _summary(tally, failures, ms)


def _summary(tally: dict, failures: dict, ms: dict) -> dict:
    out = {}
    for name, count in tally.items():
        if not count:
            continue
        scored = max(count["scored"], 1)
        out[name] = {**count, "exact_rate": round(count["exact"] / scored, 4),
                     "decidable_rate": round(count["decidable"] / scored, 4), "failures": failures[name]}
    out["read_ms_median"] = round(float(np.median(ms["read"])), 2)
    if ms["detect"]:
        out["detect_ms_median"] = round(float(np.median(ms["detect"])), 1)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--photos", type=int, default=500)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--model", type=Path, default=REPO / "models" / "current")
    parser.add_argument("--no-model", action="store_true", help="only the true-box run")
    args = parser.parse_args()
    detector = None
    model_note = "not run (no model)"
    if not args.no_model and (args.model / "meta.json").is_file():
        from vision.detector import TileDetector

        detector = TileDetector(args.model)
        model_note = f"{args.model.name} version {detector.version} ({detector.backend})"
    def write(results: dict, done: int) -> None:
        results.update({
            "photos": done, "photos_planned": args.photos, "seed": args.seed, "model": model_note,
            "date": datetime.now(timezone.utc).isoformat(timespec="seconds"), "machine": platform.platform(),
        })
        write_results(results, args.seed, model_note, done, args.photos)

    write(run(args.photos, args.seed, detector, write), args.photos)


def write_results(results: dict, seed: int, model_note: str, done: int, planned: int) -> None:
    out_dir = REPO / "benchmarks" / "results"
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / "normalizer.json").write_text(json.dumps(results, indent=1, ensure_ascii=False) + "\n")
    partial = "" if done == planned else f" (partial: {done} of {planned} photos done)"
    lines = [
        "# Normalizer on generated photos", "",
        f"{done} photos of `mjsnap synth` stream seed {seed}{partial}; {results['date']}; detector: {model_note}.",
        "`exact`: concealed tiles, winning tile and every meld with its type right. `decidable`: the same, forgiving an",
        "added kong laid out like an exposed one and the kind of a four-back kong (both reported as warnings).", "",
        "| detections | photos | hand cut by frame | scored | exact | decidable |", "|---|---|---|---|---|---|",
    ]
    for name in ("true_boxes", "detector"):
        if name in results:
            r = results[name]
            lines.append(f"| {name.replace('_', ' ')} | {r['photos']} | {r.get('hand_cut_by_frame', 0)} | {r['scored']} "
                         f"| {r['exact_rate']:.1%} | {r['decidable_rate']:.1%} |")
    lines += ["", f"read_hand median time: {results['read_ms_median']} ms per photo"
              + (f"; detector median {results['detect_ms_median']} ms." if "detect_ms_median" in results else "."),
              "", "Failures (true boxes) are listed in normalizer.json."]
    (out_dir / "normalizer.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
