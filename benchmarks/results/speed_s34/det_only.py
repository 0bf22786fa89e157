"""Tile detector alone (find_tiles, zoom on, conf 0.25): boxes missed / extra against every labelled tile, at several
detector input sizes. usage: det_only.py NAME=DETDIR:IMGSZ:PRECISION ... """
import sys, time, json
from pathlib import Path
sys.path.insert(0, "/work/main")
import numpy as np
from vision.detector import TileDetector, _openvino_network
from vision.evaluate import labelled_images
from vision.imageio import read_image

def iou(a, b):
    x1 = np.maximum(a[:, None, 0], b[None, :, 0]); y1 = np.maximum(a[:, None, 1], b[None, :, 1])
    x2 = np.minimum(a[:, None, 2], b[None, :, 2]); y2 = np.minimum(a[:, None, 3], b[None, :, 3])
    inter = np.clip(x2 - x1, 0, None) * np.clip(y2 - y1, 0, None)
    area = lambda z: (z[:, 2] - z[:, 0]) * (z[:, 3] - z[:, 1])
    return inter / (area(a)[:, None] + area(b)[None] - inter + 1e-9)

def score(gt, pred):
    if not len(gt) or not len(pred): return len(gt), len(pred)
    m = iou(gt, pred); missed = extra = 0
    used = set()
    for i in np.argsort(-m.max(1)):
        j = int(m[i].argmax())
        if m[i, j] >= 0.5 and j not in used: used.add(j)
        else: missed += 1
    return missed, len(pred) - len(used)

SETS = {"cmd": ("datasets/cmd.yaml", None), "val31": ("work/exp23/val31/data.yaml", None), "val39": ("work/exp23/val39/data.yaml", None),
        "gleitz": ("work/s24/synth_gleitz/data.yaml", None), "ffalt": ("work/s24/synth_ffalt/data.yaml", None)}
variants = [a.split("=") for a in sys.argv[1:]]
det = TileDetector(Path("models/current")); st = det.stages
nets = {}
for name, spec in variants:
    folder, size, prec = spec.split(":")
    nets[name] = (_openvino_network(Path(folder), prec), int(size))
out = {}
for sname, (cfg, _) in SETS.items():
    items = labelled_images(Path(cfg), "val")
    res = {n: [0, 0, 0.0] for n in nets}
    for it in items:
        loaded = read_image(it.path)
        to_x, to_y = loaded.to_original
        for n, (net, size) in nets.items():
            st._detector, st.detector_imgsz = net, size
            t = time.perf_counter(); boxes, conf = st.find_tiles(loaded); res[n][2] += time.perf_counter() - t
            m, e = score(it.xyxy, boxes * [to_x, to_y, to_x, to_y])
            res[n][0] += m; res[n][1] += e
    out[sname] = {n: {"tiles": int(sum(len(i.xyxy) for i in items)), "missed": r[0], "extra": r[1], "ms": round(r[2] / len(items) * 1e3, 1)} for n, r in res.items()}
    print(sname, out[sname], flush=True)
json.dump(out, open("work/s34/det_only.json", "w"), indent=1)
