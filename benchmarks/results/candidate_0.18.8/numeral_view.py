"""Tile errors with each numeral view of the text recognizer (vision.twostage.characters.NUMERAL_VIEWS), one run.

Readers: the shipped model on cmd val and the generated seeds 31 / 39, and the hold-out proxy's three fold readers
(session 31's pairs, built by ../candidate_0.18.6/folds.sh and ../int8_probe/proxy_int8.py) on their held-out sets.
Writes numeral_view.json beside this script; run from the repository root:

    .venv/bin/python benchmarks/results/candidate_0.18.8/numeral_view.py [VIEW,...] [READER,...]

(default: bands and beside, every reader in READERS' order; a reading already in the file is not redone)
"""
import dataclasses
import json
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(REPO))

from vision import evaluate as ev  # noqa: E402
from vision.detector import TileDetector  # noqa: E402

OUT = Path(__file__).with_name("numeral_view.json")
READERS = [
    ("cmd val", REPO / "models/current", REPO / "datasets/cmd.yaml"),
    ("seed 31", REPO / "models/current", REPO / "work/exp23/val31/data.yaml"),
    ("seed 39", REPO / "models/current", REPO / "work/exp23/val39/data.yaml"),
    ("proxy gleitz", REPO / "work/s32/proxy/gleitz96_f32", REPO / "work/s24/synth_gleitz/data.yaml"),
    ("proxy ffalt", REPO / "work/s32/proxy/ffalt96_f32", REPO / "work/s24/synth_ffalt/data.yaml"),
    ("proxy cmd", REPO / "work/s32/proxy/cmd96_f32", REPO / "datasets/cmd.yaml"),
]


def read(model: Path, data: Path, view: str, name: str) -> dict:
    detector = TileDetector(model, conf=ev.MAP_CONF)
    stages = detector.stages
    stages.characters = dataclasses.replace(stages.characters, numeral_view=view)
    stages.reader.numeral_view = view

    def predict(path):
        dets = detector.detect(path)
        return ev.Prediction(dets.xyxy, dets.confidence, dets.class_id)

    result = ev.evaluate(predict, ev.labelled_images(data), 0.25, f"{name} {view}", str(data), top_k=12)
    return {"tiles": result.true_tiles, "tile_errors": result.tile_errors, "missed": result.missed,
            "misread": result.misclassified, "extra": result.extra,
            "top_confusions": [[f"{c.true}->{c.predicted}", c.count] for c in result.top_confusions]}


if __name__ == "__main__":
    views = sys.argv[1].split(",") if len(sys.argv) > 1 else ["bands", "beside"]
    names = sys.argv[2].split(",") if len(sys.argv) > 2 else [name for name, _, _ in READERS]
    done = json.loads(OUT.read_text()) if OUT.exists() else {}
    for name, model, data in sorted((r for r in READERS if r[0] in names), key=lambda r: names.index(r[0])):
        for view in views:
            key = f"{name} | {view}"
            if key in done:
                continue
            done[key] = read(model, data, view, name)
            OUT.write_text(json.dumps(done, indent=1, ensure_ascii=False))
            print(key, done[key]["tile_errors"], done[key]["top_confusions"][:5], flush=True)
