"""Does the text recognizer see 萬 on 萬 tiles, and not on the others? The evidence behind the 萬 check
(vision.twostage.characters, meta `characters.wan_doubt`).

Every labelled tile of each photo set is cut from its ground-truth box as the reader cuts it for the recognizer
(128 px, the classifier's margin) and read for 萬 / 万 on its lower half (CharacterReader.mark_scores). Per set, the
share of tiles where the score reaches each threshold, for 萬 tiles (1m-9m, and each of them), birds (1s), flowers
and every other tile. No classifier is involved, so a set reads the same whatever the model learnt.

    .venv/bin/python benchmarks/wan_seen.py --set cmd=datasets/cmd.yaml --set gleitz=work/s24/synth_gleitz/data.yaml

Writes benchmarks/results/wan_seen.json and .md.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
from datetime import datetime, timezone
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from scoring.tiles import CLASS_NAMES  # noqa: E402
from vision.evaluate import labelled_images  # noqa: E402
from vision.imageio import load_image  # noqa: E402
from vision.twostage.characters import CROP_SIZE, WAN, CharacterReader  # noqa: E402
from vision.twostage.crops import MARGIN, cut_tile  # noqa: E402

THRESHOLDS = (0.05, 0.1, 0.3)
GROUPS = {"萬 tiles": list(range(9)), "1s": [CLASS_NAMES.index("1s")], "flower": [CLASS_NAMES.index("flower")]}
GROUPS["other tiles"] = [c for c in range(len(CLASS_NAMES)) if not any(c in g for g in GROUPS.values())]


def crops_of(data: Path, split: str, margin: float) -> tuple[np.ndarray, np.ndarray]:
    crops, classes = [], []
    for item in labelled_images(data, split):
        if not len(item.class_id):
            continue
        rgb = load_image(item.path)
        crops += [cut_tile(rgb, box, CROP_SIZE, margin) for box in item.xyxy]
        classes += [int(c) for c in item.class_id]
    return np.stack(crops), np.array(classes)


def measure(reader: CharacterReader, data: Path, split: str, margin: float) -> dict:
    crops, classes = crops_of(data, split, margin)
    scores = np.concatenate([reader.mark_scores(crops[i : i + 64], WAN) for i in range(0, len(crops), 64)])
    def shares(mask: np.ndarray) -> dict:
        return {"tiles": int(mask.sum()), **{f">={t:g}": round(float((scores[mask] >= t).mean()), 3) for t in THRESHOLDS}}
    return {"tiles": len(classes),
            "groups": {name: shares(np.isin(classes, cls)) for name, cls in GROUPS.items()},
            "wan_classes": {CLASS_NAMES[c]: shares(classes == c) for c in range(9)}}


def markdown(result: dict) -> str:
    lines = [f"# Is 萬 seen on 萬 tiles only? ({result['date']})", "",
             "`benchmarks/wan_seen.py`: every labelled tile cut from its ground-truth box at 128 px and read for 萬 / 万 "
             "on its lower half by the shipped text recognizer; the share of tiles whose score reaches each threshold. "
             f"{result['machine']}.", "",
             "| set | tiles | " + " | ".join(f"{g}, score {t}" for g in GROUPS for t in (">=0.1",)) + " |",
             "|---|---:|" + "---:|" * len(GROUPS)]
    for name, row in result["sets"].items():
        cells = [f"{row['groups'][g]['>=0.1']:.1%} of {row['groups'][g]['tiles']:,}" for g in GROUPS]
        lines.append(f"| {name} | {row['tiles']:,} | " + " | ".join(cells) + " |")
    lines += ["", "Each 萬 tile, score >= 0.1:", "", "| set | " + " | ".join(CLASS_NAMES[:9]) + " |",
              "|---|" + "---:|" * 9]
    for name, row in result["sets"].items():
        lines.append(f"| {name} | " + " | ".join(f"{row['wan_classes'][c]['>=0.1']:.0%}" for c in CLASS_NAMES[:9]) + " |")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--set", action="append", required=True, help="NAME=DATA_YAML, repeated")
    parser.add_argument("--split", default="val")
    parser.add_argument("--model", type=Path, default=REPO / "models" / "current")
    parser.add_argument("--out", default="wan_seen")
    args = parser.parse_args()
    meta = json.loads((args.model / "meta.json").read_text(encoding="utf-8"))
    reader = CharacterReader(args.model / "characters")
    margin = meta.get("classifier", {}).get("margin", MARGIN)
    result = {"date": datetime.now(timezone.utc).isoformat(timespec="seconds"),
              "machine": f"{platform.machine()}, {__import__('os').cpu_count()} cores", "sets": {}}
    for item in args.set:
        name, _, data = item.partition("=")
        result["sets"][name] = measure(reader, Path(data), args.split, margin)
        print(name, result["sets"][name]["groups"], flush=True)
    out = REPO / "benchmarks" / "results" / args.out
    out.with_suffix(".json").write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    out.with_suffix(".md").write_text(markdown(result), encoding="utf-8")
    print(markdown(result))


if __name__ == "__main__":
    main()
