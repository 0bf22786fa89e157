"""Extra boxes (no labelled tile at IoU 0.5) of two models on a set's val photos: those of the first that the second
lacks and the other way round, counted and drawn as contact sheets (work/s43/extras_SET_gone.png and _new.png; README.md quotes them):

    .venv/bin/python benchmarks/results/candidate_0.23.0/extra_boxes.py MODEL_A MODEL_B [DATA_YAML]
"""
import sys
from pathlib import Path
import numpy as np, cv2
sys.path.insert(0, str(Path.cwd()))
from vision import evaluate as ev
from vision.detector import TileDetector
from vision.imageio import read_image

a, b = (TileDetector(Path(m)) for m in sys.argv[1:3])
data = Path(sys.argv[3] if len(sys.argv) > 3 else "datasets/cmd.yaml")
images = ev.labelled_images(data, "val", None)
gone, new = [], []
for im in images:
    loaded = read_image(im.path)
    extras = []
    for det in (a, b):
        d = det.detect(loaded)
        iou = ev.box_iou(im.xyxy, d.xyxy) if len(d.xyxy) else np.zeros((len(im.xyxy), 0))
        matched = {j for _, j in ev.greedy_match(iou, 0.5)}
        extras.append([(d.xyxy[j], det.classes[d.class_id[j]], d.confidence[j]) for j in range(len(d.xyxy)) if j not in matched])
    def absent(box, others):
        return all(ev.box_iou(box[None], o[0][None])[0, 0] < 0.5 for o in others)
    gone += [(loaded.pixels, e) for e in extras[0] if absent(e[0], extras[1])]
    new += [(loaded.pixels, e) for e in extras[1] if absent(e[0], extras[0])]
print("extra of A not in B:", len(gone), " extra of B not in A:", len(new))
def sheet(items, path):
    tiles = []
    for rgb, (box, name, conf) in items[:80]:
        x1, y1, x2, y2 = box.astype(int)
        pad = 8
        crop = rgb[max(0, y1 - pad):y2 + pad, max(0, x1 - pad):x2 + pad]
        crop = cv2.resize(crop, (80, 100))
        cv2.putText(crop, f"{name} {conf:.2f}", (2, 96), cv2.FONT_HERSHEY_SIMPLEX, 0.35, (255, 0, 0), 1)
        tiles.append(crop)
    while len(tiles) % 10: tiles.append(np.zeros_like(tiles[0]))
    rows = [np.hstack(tiles[i:i + 10]) for i in range(0, len(tiles), 10)]
    cv2.imwrite(path, cv2.cvtColor(np.vstack(rows), cv2.COLOR_RGB2BGR))
set_name = data.stem if data.suffix == ".yaml" and data.stem != "data" else data.parent.name  # cmd, val39, ...
for items, side in ((gone, "gone"), (new, "new")):
    if items:
        sheet(items, f"work/s43/extras_{set_name}_{side}.png")
