"""Name errors of model folders on the shipped-model test's generated photos (and more of the same stream),
smeared and dimmed as benchmarks/photo_conditions.py changes cmd val."""
import sys
from pathlib import Path
import numpy as np
sys.path.insert(0, "."); sys.path.insert(0, "tests")
from PIL import Image
from dataset_fixtures import synthetic_hand_photos
from benchmarks.photo_conditions import CONDITIONS
from vision import evaluate as ev

count = int(sys.argv[1]); models = sys.argv[2:]
root = Path("work/s42/gen"); root.mkdir(parents=True, exist_ok=True)
photos = synthetic_hand_photos(root, 20261202, count, max_tilt=35.0)
for cond in ("as_labelled", "motion_blur", "dim"):
    rng = np.random.default_rng(0)
    changed = []
    for p in photos:
        rgb = np.asarray(Image.open(p.path).convert("RGB"))
        out = root / cond / p.path.name; out.parent.mkdir(exist_ok=True)
        Image.fromarray(CONDITIONS[cond][1](rgb, rng)).save(out)
        changed.append(ev.LabelledImage(out, p.xyxy, p.class_id))
    for m in models:
        predictor, _ = ev.detector_predictor(Path(m), "openvino")
        r = ev.evaluate(predictor, changed, 0.25, m, cond)
        print(cond, m, "tile_errors", r.tile_errors, "name_errors", r.name_errors, "read right", r.hands_read_right, flush=True)
