"""Readers timed photo by photo in turn on cmd val (photos decoded first). usage: ab_time.py NAME=MODEL:LIMIT ..."""
import sys, time, statistics, json, os
from pathlib import Path
sys.path.insert(0, "/work/main")
import numpy as np
import vision.detector as vd
import vision.twostage.backend as vb
from vision.detector import TileDetector
from vision.imageio import read_image
readers = {}
for arg in sys.argv[1:]:
    name, spec = arg.split("="); model, limit = spec.split(":")
    vd.ANY_BATCH_LIMIT = int(limit)
    readers[name] = (TileDetector(Path(model)), int(limit))
photos = [read_image(p) for p in sorted(Path("/work/shared/datasets/cmd/images/val").glob("*"))]
times = {n: [] for n in readers}; same = {n: 0 for n in readers}
for im in photos[:5]:
    for n, (r, lim) in readers.items(): vb.ANY_BATCH_LIMIT = lim; r.detect(im)
first = next(iter(readers))
for im in photos:
    got = {}
    for n, (r, lim) in readers.items():
        vb.ANY_BATCH_LIMIT = lim
        t = time.perf_counter(); d = r.detect(im); times[n].append((time.perf_counter() - t) * 1e3)
        got[n] = list(d.class_id)
    for n in readers: same[n] += got[n] == got[first]
out = {"date": time.strftime("%FT%TZ", time.gmtime()), "load": os.getloadavg(), "photos": len(photos),
       **{n: {"median_ms": round(statistics.median(t), 2), "mean_ms": round(statistics.fmean(t), 2),
              "p90_ms": round(float(np.percentile(t, 90)), 2), "photos_same_classes_as_" + first: same[n]} for n, t in times.items()}}
print(json.dumps(out, indent=1))
