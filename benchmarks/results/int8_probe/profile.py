"""Where a photo's reading time goes: per network, over cmd val photos."""
import sys, time, statistics
from pathlib import Path
from collections import defaultdict
sys.path.insert(0, "/work/main")
import numpy as np
from vision.detector import TileDetector
from vision.imageio import read_image

model = sys.argv[1] if len(sys.argv) > 1 else "models/current"
det = TileDetector(Path(model))
st = det.stages
spent = defaultdict(float); calls = defaultdict(int); items = defaultdict(int)
def wrap(name, fn):
    def run(t):
        t0 = time.perf_counter(); out = fn(t); spent[name] += time.perf_counter() - t0
        calls[name] += 1; items[name] += len(t); return out
    for k, v in vars(fn).items() if hasattr(fn, "__dict__") else []:
        setattr(run, k, v)
    return run
st._detector = wrap("detector", st._detector)
st._classifiers = [wrap(f"classifier{i}", c) for i, c in enumerate(st._classifiers)]
if getattr(st, "reader", None) is not None:
    st.reader._run = wrap("characters", st.reader._run)
photos = sorted(Path("/work/shared/datasets/cmd/images/val").glob("*"))[: int(sys.argv[2]) if len(sys.argv) > 2 else 999]
loaded = [read_image(p) for p in photos]
det.detect(loaded[0])
spent.clear(); calls.clear(); items.clear()
times = []
for im in loaded:
    t0 = time.perf_counter(); det.detect(im); times.append(time.perf_counter() - t0)
n = len(loaded)
print(f"{n} photos, median {statistics.median(times)*1e3:.1f} ms, mean {np.mean(times)*1e3:.1f} ms")
for k in spent:
    print(f"{k:12s} {spent[k]/n*1e3:7.1f} ms/photo  {calls[k]/n:5.2f} calls/photo  {items[k]/max(calls[k],1):5.1f} items/call  {spent[k]/max(calls[k],1)*1e3:6.2f} ms/call")
print(f"other        {(sum(times)-sum(spent.values()))/n*1e3:7.1f} ms/photo")
