"""The tile detector alone (ultralytics .pt, 480 px, confidence 0.25) on cmd val's first photos as taken, out of
focus and smeared (photo_conditions' changes): tiles missed and boxes extra at IoU 0.5, and the median IoU and width
ratio (box / label) of the matched pairs. Session 43 read 0.22.0's detector and the run's epochs with it (README.md):

    .venv/bin/python benchmarks/results/candidate_0.23.0/box_probe.py models/current/detector/model.pt,RUN/weights/last.pt 60
"""
import sys
from pathlib import Path
import numpy as np
sys.path.insert(0, str(Path.cwd()))
from benchmarks.photo_conditions import CONDITIONS
from vision import evaluate as ev
from vision.imageio import read_image
from ultralytics import YOLO

images = ev.labelled_images(Path("datasets/cmd.yaml"), "val", int(sys.argv[2]) if len(sys.argv) > 2 else 60)
photos = [read_image(im.path).pixels for im in images]
for weights in sys.argv[1].split(","):
    model = YOLO(weights)
    for cond in ["as_labelled", "soft_focus", "motion_blur"]:
        rng = np.random.default_rng(0)
        ious, rw, missed, extra, n = [], [], 0, 0, 0
        for im, rgb in zip(images, photos):
            rgb = CONDITIONS[cond][1](rgb, rng)
            r = model.predict(rgb[..., ::-1].copy(), imgsz=480, conf=0.25, iou=0.5, verbose=False, device="cpu")[0]
            pred = r.boxes.xyxy.numpy()
            t = im.xyxy; n += len(t)
            iou = ev.box_iou(t, pred) if len(pred) else np.zeros((len(t), 1))
            pairs = ev.greedy_match(iou, 0.5)
            missed += len(t) - len(pairs); extra += len(pred) - len(pairs)
            for i, j in pairs:
                ious.append(iou[i, j]); rw.append((pred[j, 2] - pred[j, 0]) / (t[i, 2] - t[i, 0]))
        print(f"{Path(weights).parent.parent.name or weights:>22} {cond:12} tiles {n} missed {missed:4d} extra {extra:4d} "
              f"iou med {np.median(ious):.3f} width ratio {np.median(rw):.2f}", flush=True)
