"""Classifier INT8 variants against f32 on crops the reader feeds it: argmax agreement and probability change."""
import sys, time, random, pickle
from pathlib import Path
sys.path.insert(0, "/work/main")
import numpy as np, openvino as ov, nncf
from vision.detector import TileDetector
from vision.imageio import read_image

cache = Path("/work/main/work/s32/cls_crops.pkl")
if not cache.exists():
    det = TileDetector(Path("/work/main/models/current"))
    st = det.stages
    got = {"train": [], "val": []}
    split = ["train"]
    orig = st._classifiers[0]
    def rec(t):
        got[split[0]].extend(np.array(t[i:i+1]) for i in range(len(t))); return orig(t)
    rec.any_batch = True
    st._classifiers[0] = rec
    tr = sorted(Path("/work/shared/datasets/cmd/images/train").glob("*")); random.Random(0).shuffle(tr)
    va = sorted(Path("/work/shared/datasets/cmd/images/val").glob("*")); random.Random(0).shuffle(va)
    for p in tr[:60]: det.detect(read_image(p))
    split[0] = "val"
    for p in va[:60]: det.detect(read_image(p))
    cache.write_bytes(pickle.dumps(got))
got = pickle.loads(cache.read_bytes())
random.Random(1).shuffle(got["train"])
calib = got["train"][:600]
val = np.concatenate(got["val"])
print(len(got["train"]), len(val), flush=True)
core = ov.Core()
xml = "/work/main/models/current/classifier/model_openvino/model.xml"
def load():
    m = core.read_model(xml); m.reshape({m.inputs[0]: ov.PartialShape([ov.Dimension(1, 16), 3, 96, 96])}); return m
def run(model):
    c = core.compile_model(model, "CPU", {"INFERENCE_PRECISION_HINT": "f32", "INFERENCE_NUM_THREADS": 2, "PERFORMANCE_HINT": "LATENCY"})
    r = c.create_infer_request(); out = []
    t0 = time.perf_counter()
    for i in range(0, len(val), 16): out.append(r.infer({0: val[i:i+16]})[c.output(0)].copy())
    return np.concatenate(out), (time.perf_counter() - t0) / len(val) * 16 * 1e3
ref, t_ref = run(load())
print(f"f32: {t_ref:.2f} ms/16", flush=True)
from nncf.quantization.advanced_parameters import AdvancedQuantizationParameters, OverflowFix
from nncf.parameters import ModelType
variants = {
    "default": dict(),
    "mixed": dict(preset=nncf.QuantizationPreset.MIXED),
    "no_fbc": dict(fast_bias_correction=False),
    "no_overflow_fix": dict(advanced_parameters=AdvancedQuantizationParameters(overflow_fix=OverflowFix.DISABLE)),
    "overflow_fix_all": dict(advanced_parameters=AdvancedQuantizationParameters(overflow_fix=OverflowFix.ENABLE)),
    "all_mixed": dict(preset=nncf.QuantizationPreset.MIXED, advanced_parameters=AdvancedQuantizationParameters(overflow_fix=OverflowFix.ENABLE)),
    "all_mixed_nofbc": dict(preset=nncf.QuantizationPreset.MIXED, fast_bias_correction=False, advanced_parameters=AdvancedQuantizationParameters(overflow_fix=OverflowFix.ENABLE)),
    "all_mixed_nofbc_head": dict(preset=nncf.QuantizationPreset.MIXED, fast_bias_correction=False, ignored_scope=nncf.IgnoredScope(types=["MatMul"]), advanced_parameters=AdvancedQuantizationParameters(overflow_fix=OverflowFix.ENABLE)),
}
sel = sys.argv[1].split(",") if len(sys.argv) > 1 else list(variants)
for name in sel:
    kw = variants[name]
    q = nncf.quantize(load(), nncf.Dataset(calib), subset_size=len(calib), **kw)
    out, t = run(q)
    agree = (out.argmax(1) == ref.argmax(1)).mean()
    sure = ref.max(1) >= 0.9
    print(f"{name}: {t:.2f} ms/16, argmax agree {agree:.4f}, on sure {(out.argmax(1)==ref.argmax(1))[sure].mean():.4f}, "
          f"mean |dp| {np.abs(out-ref).sum(1).mean():.4f}, best-p drop {np.mean(ref.max(1)-out[np.arange(len(out)), ref.argmax(1)]):.4f}", flush=True)
