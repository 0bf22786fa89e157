"""cmd val's first 40 photos (the shipped-model test's slice), smeared / dimmed: name errors per model."""
import sys
from pathlib import Path
import numpy as np
sys.path.insert(0, ".")
from PIL import Image
from benchmarks.photo_conditions import CONDITIONS
from vision import evaluate as ev
n = int(sys.argv[1]); models = sys.argv[2:]
images = ev.load_labelled_folder(Path("../shared/datasets/cmd/images/val"), n)
root = Path("work/s42/slice")
for cond in ("motion_blur", "dim"):
    rng = np.random.default_rng(0)
    changed = []
    for p in images:
        out = root / cond / (p.path.stem + ".png"); out.parent.mkdir(parents=True, exist_ok=True)
        Image.fromarray(CONDITIONS[cond][1](np.asarray(Image.open(p.path).convert("RGB")), rng)).save(out)
        changed.append(ev.LabelledImage(out, p.xyxy, p.class_id))
    for m in models:
        predictor, _ = ev.detector_predictor(Path(m), "onnxruntime")
        r = ev.evaluate(predictor, changed, 0.25, m, cond)
        print(cond, m, "tile_errors", r.tile_errors, "name_errors", r.name_errors, "read right", r.hands_read_right, flush=True)
