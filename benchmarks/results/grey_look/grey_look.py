"""Session 29 experiment: the extra looks at an unsure tile also look at it in grey (the photo's channels averaged, as
fastcls's grey augmentation does), on the hold-out proxy's six pairs, with 0.18.2's reading settings."""
import json, sys
from pathlib import Path
import numpy as np
sys.path.insert(0, ".")
from benchmarks.holdout_proxy import read_photos
from vision.twostage import backend as B

original_look = B.TwoStageNetworks.look


def look_with_grey(self, rgb, boxes, margins, classifiers=None, half_turns=None):
    probs = original_look(self, rgb, boxes, margins, classifiers, half_turns)
    if tuple(margins) == tuple(self.extra_looks_margins):
        grey = np.repeat(rgb.mean(2, keepdims=True).astype(np.uint8), 3, axis=2)
        grey_probs = original_look(self, grey, boxes, (self.margin,), classifiers, half_turns)
        probs = (probs * len(margins) + grey_probs) / (len(margins) + 1)
    return probs


B.TwoStageNetworks.look = look_with_grey
settings = {"classifier": {"imgsz": 96, "half_turn_below": 0.8},
            "characters": {"gate": 1.0, "decisive_only": True, "openvino_precision": "bf16"}}
pairs = {"cmd96_100": ("datasets/cmd.yaml", "work/crop_size_96/100_px96.pt"),
         "gleitz96": ("work/s24/synth_gleitz/data.yaml", "work/s24/folds96/gleitz_photo.pt"),
         "ffalt96": ("work/s24/synth_ffalt/data.yaml", "work/s24/folds96/ffalt_photo.pt"),
         "cmd96_200": ("datasets/cmd.yaml", "work/crop_size_96/200_px96.pt"),
         "cmd96_300": ("datasets/cmd.yaml", "work/crop_size_96/300_px96.pt"),
         "cmd96_400": ("datasets/cmd.yaml", "work/crop_size_96/400_px96.pt")}
out = Path("work/exp29/grey")  # the reports were copied to benchmarks/results/grey_look/; out.mkdir(parents=True, exist_ok=True)
total = [0, 0]
for name, (data, ckpt) in pairs.items():
    r = read_photos(Path(ckpt), Path("work/model_cpu_fold_n"), Path(data), out / f"{name}.json", settings)
    base = json.loads(Path(f"work/exp29/proxy_bf16/character_gate/{name}_gate1.0.json").read_text())
    total[0] += base["tile_errors"]; total[1] += r["tile_errors"]
    print(name, "bf16 baseline", base["tile_errors"], "grey look", r["tile_errors"], r["top_confusions"][:5], flush=True)
print("all", total)
