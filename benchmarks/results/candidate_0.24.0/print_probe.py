"""Print beside the hand, read by each model: 59 generated photos (the val split of 60, seed 47, 640-1280 px), every
one with print on the table (vision.synth.printed.PRINT_CHANCE set to 1), scored as `mjsnap eval` scores (candidate_eval.run_eval); and 24
drawn images with no tile, only clock-like digits (candidate_0.23.0/text_probe.py's), counted for any box at all.
Writes print_probe.md and print_probe.json here.

    .venv/bin/python benchmarks/results/candidate_0.24.0/print_probe.py MODEL [MODEL ...]
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(REPO))
from benchmarks.candidate_eval import run_eval  # noqa: E402
from vision.detector import TileDetector  # noqa: E402
from vision.imageio import LoadedImage  # noqa: E402
from vision.synth import printed  # noqa: E402
from vision.synth.scene import SynthOptions  # noqa: E402
from vision.synth.writer import write_dataset  # noqa: E402

HERE = Path(__file__).resolve().parent
PRINT_SET = REPO / "work" / "s44" / "print47"
_spec = importlib.util.spec_from_file_location("text_probe", HERE.parent / "candidate_0.23.0" / "text_probe.py")
text_probe = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(text_probe)


def print_set() -> Path:
    if not (PRINT_SET / "data.yaml").is_file():
        printed.PRINT_CHANCE = 1.0
        for _ in write_dataset(PRINT_SET, 60, 47, val_fraction=0.99, options=SynthOptions(imgsz_min=640, imgsz_max=1280)):
            pass
    return PRINT_SET / "data.yaml"


def main(models: list[str]) -> None:
    data = print_set()
    clocks = text_probe.clock_images()
    rows = {}
    for model in models:
        report = run_eval(Path(model), data)
        reader = TileDetector(Path(model))
        boxes = [len(reader.detect(LoadedImage.from_array(x)).xyxy) for x in clocks]
        rows[model] = {"tile_errors": report.tile_errors, "missed": report.missed,
                       "misclassified": report.misclassified, "extra": report.extra,
                       "exact_match": report.exact_match, "name_errors": report.name_errors,
                       "clock_images_boxed": sum(b > 0 for b in boxes), "clock_boxes": sum(boxes)}
        print(model, rows[model], flush=True)
    (HERE / "print_probe.json").write_text(json.dumps(rows, indent=1) + "\n")
    lines = ["Print beside the hand (59 generated photos, seed 47, all with print; `print_probe.py`) and 24 images of "
             "clock digits with no tile.", "",
             "| model | tile errors (missed / misread / extra) | exact match | name errors | clock images boxed | clock boxes |",
             "|---|---:|---:|---:|---:|---:|"]
    for model, r in rows.items():
        lines.append(f"| {model} | {r['tile_errors']} ({r['missed']} / {r['misclassified']} / {r['extra']}) | "
                     f"{r['exact_match']:.3f} | {r['name_errors']} | {r['clock_images_boxed']} of 24 | {r['clock_boxes']} |")
    (HERE / "print_probe.md").write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main(sys.argv[1:])
