"""What the numeral view costs: each photo read by a reader with each view in turn (detect(), photo decoded first),
and the recognizer alone on the same crops. Writes numeral_view_time.json beside this script.

    .venv/bin/python benchmarks/results/candidate_0.18.8/numeral_view_time.py [PHOTOS_PER_SET]
"""
import dataclasses
import json
import os
import statistics
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(REPO))

import numpy as np  # noqa: E402

from vision.detector import TileDetector  # noqa: E402
from vision.evaluate import labelled_images  # noqa: E402
from vision.imageio import read_image  # noqa: E402
from vision.twostage.characters import CROP_SIZE  # noqa: E402

OUT = Path(__file__).with_name("numeral_view_time.json")
SETS = [("cmd val, 0.18.7 / 0.18.8", REPO / "models/current", REPO / "datasets/cmd.yaml"),
        ("proxy gleitz", REPO / "work/s32/proxy/gleitz96_f32", REPO / "work/s24/synth_gleitz/data.yaml")]
VIEWS = ("bands", "beside")


def reader(model: Path, view: str) -> TileDetector:
    detector = TileDetector(model)
    detector.stages.characters = dataclasses.replace(detector.stages.characters, numeral_view=view)
    detector.stages.reader.numeral_view = view
    return detector


def main(limit: int) -> dict:
    out = {"date": datetime.now(timezone.utc).isoformat(timespec="seconds"), "cpu": os.cpu_count(),
           "load_before": os.getloadavg(), "sets": {}}
    for name, model, data in SETS:
        photos = [read_image(item.path) for item in labelled_images(data, "val", limit)]
        readers = {view: reader(model, view) for view in VIEWS}
        for detector in readers.values():
            detector.detect(photos[0])
        times = {view: [] for view in VIEWS}
        for photo in photos:
            for view, detector in readers.items():
                start = time.perf_counter()
                detector.detect(photo)
                times[view].append((time.perf_counter() - start) * 1e3)
        out["sets"][name] = {view: {"photos": len(ms), "median_ms": round(statistics.median(ms), 2),
                                    "mean_ms": round(statistics.fmean(ms), 2)} for view, ms in times.items()}
        print(name, out["sets"][name], flush=True)
    crops = np.random.default_rng(0).integers(0, 255, (2, CROP_SIZE, CROP_SIZE, 3), np.uint8)
    alone = {view: [] for view in VIEWS}
    recognizers = {view: reader(REPO / "models/current", view).stages.reader for view in VIEWS}
    for _ in range(100):
        for view, recognizer in recognizers.items():
            start = time.perf_counter()
            recognizer.scores(crops)
            alone[view].append((time.perf_counter() - start) * 1e3)
    out["recognizer_two_crops_median_ms"] = {view: round(statistics.median(ms), 2) for view, ms in alone.items()}
    out["load_after"] = os.getloadavg()
    print(out["recognizer_two_crops_median_ms"])
    return out


if __name__ == "__main__":
    OUT.write_text(json.dumps(main(int(sys.argv[1]) if len(sys.argv) > 1 else 120), indent=1, ensure_ascii=False))
