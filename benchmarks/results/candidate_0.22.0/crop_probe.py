"""Crop-level screen: each classifier's top-1 on cmd val crops as they are, dimmed (photo_conditions' dim), and
smeared sideways; P->back under dim; synthetic val backs dimmed (back->P)."""
import sys
from pathlib import Path
import numpy as np, cv2, torch
sys.path.insert(0, ".")
torch.set_num_threads(2)
from vision.twostage import fastcls
from scoring.tiles import CLASS_NAMES

P, BACK = CLASS_NAMES.index("P"), CLASS_NAMES.index("back")
cmd, cmd_y, _ = fastcls.load_split(Path("work/s41/exp/cmd_crops96/val"))
syn_back = np.stack([fastcls._read_rgb(p) for p in sorted(Path("work/s41/exp/crops/val/34_back").glob("syn*.png"))[:400]])
syn_p = np.stack([fastcls._read_rgb(p) for p in sorted(Path("work/s41/exp/crops/val/33_P").glob("syn*.png"))[:400]])

def dim(x, seed=0):
    rng = np.random.default_rng(seed)
    d = (x.astype(np.float32) / 255) ** 1.6 * 255 * 0.55
    return np.clip(d + rng.normal(0, 5, x.shape), 0, 255).astype(np.uint8)

def smear(x, n=13):
    k = np.zeros((n, n), np.float32); k[n // 2] = 1 / n
    return np.stack([cv2.filter2D(c, -1, k, borderType=cv2.BORDER_REFLECT) for c in x])

for path in sys.argv[1:]:
    model = torch.load(path, map_location="cpu", weights_only=False)["model"].float()
    row = {}
    for name, xs in (("cmd", cmd), ("cmd_dim", dim(cmd)), ("cmd_smear", smear(cmd))):
        pred = fastcls.predict_classes(model, xs)
        row[name] = f"{(pred == cmd_y).mean():.4f}"
        if name == "cmd_dim":
            row["P->back dim"] = int(((cmd_y == P) & (pred == BACK)).sum())
    row["syn P dim->back"] = int((fastcls.predict_classes(model, dim(syn_p)) == BACK).sum())
    row["syn back dim->P"] = int((fastcls.predict_classes(model, dim(syn_back)) == P).sum())
    row["syn back dim ok"] = f"{(fastcls.predict_classes(model, dim(syn_back)) == BACK).mean():.3f}"
    print(path, row, flush=True)
