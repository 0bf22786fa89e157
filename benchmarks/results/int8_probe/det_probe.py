"""Detector INT8 variants against f32 on cmd val photos: box agreement at conf 0.25 and time."""
import sys, time, random, pickle
from pathlib import Path
sys.path.insert(0, "/work/main")
import numpy as np, openvino as ov, nncf
from nncf.quantization.advanced_parameters import AdvancedQuantizationParameters, OverflowFix
from vision.detector import letterbox, to_tensor, decode
from vision.imageio import read_image
cache = Path("/work/main/work/s32/det_tensors.pkl")
if not cache.exists():
    tr = sorted(Path("/work/shared/datasets/cmd/images/train").glob("*")); random.Random(0).shuffle(tr)
    va = sorted(Path("/work/shared/datasets/cmd/images/val").glob("*"))
    t = lambda p: to_tensor(letterbox(read_image(p).pixels, 480)[0])
    cache.write_bytes(pickle.dumps({"train": [t(p) for p in tr[:300]], "val": [t(p) for p in va]}))
data = pickle.loads(cache.read_bytes())
core = ov.Core()
xml = "/work/main/models/current/detector/model_openvino/model.xml"
def run(model):
    c = core.compile_model(model, "CPU", {"INFERENCE_PRECISION_HINT": "f32", "INFERENCE_NUM_THREADS": 2, "PERFORMANCE_HINT": "LATENCY"})
    r = c.create_infer_request(); outs = []; t0 = time.perf_counter()
    for x in data["val"]: outs.append(r.infer({0: x})[c.output(0)].copy())
    return outs, (time.perf_counter() - t0) / len(data["val"]) * 1e3
def iou(a, b):
    x1 = np.maximum(a[:, None, 0], b[None, :, 0]); y1 = np.maximum(a[:, None, 1], b[None, :, 1])
    x2 = np.minimum(a[:, None, 2], b[None, :, 2]); y2 = np.minimum(a[:, None, 3], b[None, :, 3])
    inter = np.clip(x2 - x1, 0, None) * np.clip(y2 - y1, 0, None)
    area = lambda z: (z[:, 2] - z[:, 0]) * (z[:, 3] - z[:, 1])
    return inter / (area(a)[:, None] + area(b)[None] - inter)
ref, t_ref = run(core.read_model(xml))
print(f"f32 {t_ref:.1f} ms", flush=True)
def compare(outs):
    ious, lost, new, dconf = [], 0, 0, []
    for o, r in zip(outs, ref):
        bq, cq, _ = decode(o, 0.25, 0.5, 100); br, cr, _ = decode(r, 0.25, 0.5, 100)
        if len(br) and len(bq):
            m = iou(br, bq); best = m.max(1); ious += list(best[best >= 0.5]); lost += int((best < 0.5).sum())
            new += int((m.max(0) < 0.5).sum())
            j = m.argmax(1); dconf += list(np.abs(cr - cq[j])[best >= 0.5])
        else:
            lost += len(br); new += len(bq)
    return f"mean IoU {np.mean(ious):.4f}, IoU<0.9 {np.mean(np.array(ious) < 0.9):.3f}, lost {lost}, new {new}, mean |dconf| {np.mean(dconf):.4f}"
def head_scope(model):
    ops = model.get_ordered_ops()
    sig = [op.get_friendly_name() for op in ops if op.get_type_name() == "Sigmoid"]
    head = sig[-1].split("/", 1)[0]
    return nncf.IgnoredScope(names=[op.get_friendly_name() for op in ops if op.get_type_name() == "Sigmoid" or op.get_friendly_name().startswith((f"{head}/", f"{head}.dfl"))])
fix = AdvancedQuantizationParameters(overflow_fix=OverflowFix.ENABLE)
variants = {
    "fix": lambda m: dict(advanced_parameters=fix),
    "fix_mixed": lambda m: dict(preset=nncf.QuantizationPreset.MIXED, advanced_parameters=fix),
    "fix_mixed_head": lambda m: dict(preset=nncf.QuantizationPreset.MIXED, advanced_parameters=fix, ignored_scope=head_scope(m)),
    "fix_mixed_head_nofbc": lambda m: dict(preset=nncf.QuantizationPreset.MIXED, fast_bias_correction=False, advanced_parameters=fix, ignored_scope=head_scope(m)),
}
for name in (sys.argv[1].split(",") if len(sys.argv) > 1 else variants):
    m = core.read_model(xml)
    q = nncf.quantize(m, nncf.Dataset(data["train"]), subset_size=300, **variants[name](m))
    outs, t = run(q)
    print(f"{name}: {t:.1f} ms, {compare(outs)}", flush=True)
