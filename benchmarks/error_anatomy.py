"""Where the shipped model's tile errors on labelled photos come from, one error at a time.

`mjsnap eval` counts tile errors as missed + misread + extra at the operating confidence. This sorts each of them
by what the boxes show, so that the next training run is aimed at the right stage:

- a missed tile: no box near it (best IoU with a kept box < 0.2: the detector or the confidence cut lost it), a
  box off the tile (0.2-0.5: drawn around part of it), or a box that matched a neighbour (>= 0.5);
  "read right, boxed small" counts missed tiles whose class an unmatched box lying inside them reads right (a
  framed 白's inner frame taken for the tile's outline) — each costs a miss and an extra, yet the hand reads right;
- an extra box: away from every labelled tile (< 0.2; by class, since cmd never labels face-down tiles), off a
  labelled tile (0.2-0.5), or a second box on a tile already matched (>= 0.5);
- a misread tile: a matched box of the wrong class, with the confusions.

    .venv/bin/python benchmarks/error_anatomy.py [--model models/current] [--data datasets/cmd.yaml] [--out DIR]

Writes error_anatomy.json and error_anatomy.md to --out (benchmarks/results).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from datetime import datetime, timezone
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from mjsnap.paths import repo_relative  # noqa: E402
from scoring.tiles import CLASS_NAMES  # noqa: E402
from vision import evaluate as ev  # noqa: E402

NEAR = 0.2  # below this IoU a box and a tile have nothing to do with each other
INSIDE = 0.9  # share of a box's area inside a tile for "boxed small"


def _overlap_band(iou: float) -> str:
    return "none" if iou < NEAR else "partial" if iou < ev.MATCH_IOU else "full"


def _inside_share(tile: np.ndarray, box: np.ndarray) -> float:
    w = max(0.0, min(tile[2], box[2]) - max(tile[0], box[0]))
    h = max(0.0, min(tile[3], box[3]) - max(tile[1], box[1]))
    return w * h / max((box[2] - box[0]) * (box[3] - box[1]), 1e-9)


def anatomy(predict: ev.Predictor, images: list[ev.LabelledImage], conf: float) -> dict:
    missed, extra, misread = Counter(), Counter(), Counter()
    extra_away_classes, boxed_small_classes = Counter(), Counter()
    for item in images:
        matching = ev.match_at(item, predict(item.path), conf)
        boxes, classes, iou = matching.xyxy, matching.class_id, matching.iou
        matched_true, matched_pred = {t for t, _ in matching.pairs}, {p for _, p in matching.pairs}
        for t, p in matching.pairs:
            if item.class_id[t] != classes[p]:
                misread[f"{CLASS_NAMES[item.class_id[t]]}->{CLASS_NAMES[classes[p]]}"] += 1
        for t in set(range(len(item.class_id))) - matched_true:
            missed[_overlap_band(float(iou[t].max()) if len(boxes) else 0.0)] += 1
            inner = [p for p in set(range(len(boxes))) - matched_pred
                     if classes[p] == item.class_id[t] and _inside_share(item.xyxy[t], boxes[p]) >= INSIDE]
            if inner:
                boxed_small_classes[CLASS_NAMES[item.class_id[t]]] += 1
        for p in set(range(len(boxes))) - matched_pred:
            band = _overlap_band(float(iou[:, p].max()) if len(item.class_id) else 0.0)
            extra[band] += 1
            if band == "none":
                extra_away_classes[CLASS_NAMES[classes[p]]] += 1
    return {
        "images": len(images),
        "true_tiles": int(sum(len(i.class_id) for i in images)),
        "missed": {"total": sum(missed.values()), "no box near": missed["none"], "box off the tile": missed["partial"],
                   "box matched a neighbour": missed["full"],
                   "read right, boxed small": sum(boxed_small_classes.values()),
                   "read right, boxed small, by class": dict(boxed_small_classes.most_common())},
        "extra": {"total": sum(extra.values()), "away from every labelled tile": extra["none"],
                  "away, by class": dict(extra_away_classes.most_common(8)),
                  "off a labelled tile": extra["partial"], "second box on a tile": extra["full"]},
        "misread": {"total": sum(misread.values()),
                    "labelled 1p": sum(n for pair, n in misread.items() if pair.startswith("1p->")),
                    "top": dict(misread.most_common(10))},
    }


def to_markdown(report: dict) -> str:
    a = report["anatomy"]
    m, e, r = a["missed"], a["extra"], a["misread"]
    return "\n".join([
        "# Where the tile errors come from",
        "",
        f"{report['date']}: {report['model']} (version {report['version']}) on {report['data']} "
        f"({a['images']} photos, {a['true_tiles']} labelled tiles), conf {report['conf']}, box match IoU "
        f"{ev.MATCH_IOU}; `benchmarks/error_anatomy.py`.",
        "",
        "| error | count | of which |",
        "|---|---|---|",
        f"| missed tile | {m['total']} | no box near it {m['no box near']}; a box off the tile (IoU {NEAR}-{ev.MATCH_IOU}) "
        f"{m['box off the tile']}; its box matched a neighbour {m['box matched a neighbour']}; read right by a box "
        f"inside it {m['read right, boxed small']} ({', '.join(f'{k} {v}' for k, v in m['read right, boxed small, by class'].items()) or 'none'}) |",
        f"| extra box | {e['total']} | away from every labelled tile {e['away from every labelled tile']} "
        f"({', '.join(f'{k} {v}' for k, v in e['away, by class'].items()) or 'none'}); off a labelled tile "
        f"{e['off a labelled tile']}; a second box on a tile {e['second box on a tile']} |",
        f"| misread tile | {r['total']} | labelled `1p` {r['labelled 1p']}; top: "
        f"{', '.join(f'{k} x{v}' for k, v in r['top'].items()) or 'none'} |",
        "",
        "A tile \"read right by a box inside it\" costs one miss and one extra here, though the hand reads right. "
        "cmd labels no face-down tile, so a `back` away from every labelled tile is usually a real face-down tile.",
        "",
    ])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--model", type=Path, default=REPO / "models" / "current")
    parser.add_argument("--data", type=Path, default=REPO / "datasets" / "cmd.yaml")
    parser.add_argument("--conf", type=float, default=0.25)
    parser.add_argument("--out", type=Path, default=REPO / "benchmarks" / "results")
    args = parser.parse_args()
    predict, _ = ev.detector_predictor(args.model)
    images = ev.labelled_images(args.data)
    meta = json.loads((args.model / "meta.json").read_text())
    report = {"date": datetime.now(timezone.utc).isoformat(timespec="seconds"), "model": repo_relative(args.model),
              "version": meta.get("version"), "data": repo_relative(args.data), "conf": args.conf,
              "anatomy": anatomy(predict, images, args.conf)}
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "error_anatomy.json").write_text(json.dumps(report, indent=1) + "\n")
    text = to_markdown(report)
    (args.out / "error_anatomy.md").write_text(text)
    print(text)


if __name__ == "__main__":
    main()
