"""Does the recognizer read a flower tile's name (春夏秋冬梅蘭兰竹菊) on flowers, and not on birds (1s)?"""
import sys
sys.path.insert(0, "/work/main"); sys.path.insert(0, "/work/main/benchmarks")
from pathlib import Path
import numpy as np
from wan_seen import crops_of
from vision.twostage.characters import CharacterReader, WHOLE_FACE, NUMERAL_BANDS
from scoring.tiles import CLASS_NAMES
reader = CharacterReader(Path("models/current/characters"))
import openvino as ov
m = ov.Core().read_model("models/current/characters/model.onnx")
d = m.get_rt_info(["framework", "character"]).astype(str).splitlines()
index = {c: i + 1 for i, c in enumerate(d)}
NAMES = [index[c] for c in "春夏秋冬梅蘭兰竹菊" if c in index]
BANDS = (WHOLE_FACE, *NUMERAL_BANDS, (0.6, 0.95), (0.0, 0.3))
F, S = CLASS_NAMES.index("flower"), CLASS_NAMES.index("1s")
for name, data in (("cmd", "datasets/cmd.yaml"), ("gleitz", "work/s24/synth_gleitz/data.yaml"), ("ffalt", "work/s24/synth_ffalt/data.yaml")):
    crops, classes = crops_of(Path(data), "val", 0.06)
    rng = np.random.default_rng(0)
    other = np.flatnonzero((classes != F) & (classes != S)); other = rng.choice(other, 300, replace=False)
    for label, idx in (("flower", np.flatnonzero(classes == F)), ("1s", np.flatnonzero(classes == S)), ("other", other)):
        peaks = np.concatenate([reader._peaks(crops[idx[i:i + 64]], BANDS) for i in range(0, len(idx), 64)])
        s = peaks[:, NAMES].max(1)
        print(name, label, len(idx), ">=0.1:", round(float((s >= 0.1).mean()), 3), ">=0.3:", round(float((s >= 0.3).mean()), 3), flush=True)
