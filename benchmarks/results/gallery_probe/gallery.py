"""Cross-photo twins, a probe (session 38): a tile the reader doubts also takes in the readings of tiles it was sure of
(best class >= 0.97) in earlier photos of the same tile set, matched as twins are (vision.twostage.twins), at most 8 a
class kept. Run from the repository root on the hold-out proxy's readers (work/s32/proxy, work/s24):

    .venv/bin/python benchmarks/results/gallery_probe/gallery.py gleitz base,0.93,0.85,0.8
"""
import json, sys, time
from pathlib import Path
import numpy as np
REPO = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(REPO))
from vision import evaluate as ev
from vision.detector import TileDetector
import vision.twostage.backend as backend
from vision.twostage import twins as tw

READERS = {
    "gleitz": (REPO / "work/s32/proxy/gleitz96_f32", REPO / "work/s24/synth_gleitz/data.yaml"),
    "ffalt": (REPO / "work/s32/proxy/ffalt96_f32", REPO / "work/s24/synth_ffalt/data.yaml"),
    "cmd": (REPO / "work/s32/proxy/cmd96_f32", REPO / "datasets/cmd.yaml"),
}
original = tw.pool_twins


class Gallery:
    def __init__(self, per_class=8, sure_prob=0.97, alike=0.93):
        self.per_class, self.sure_prob, self.alike = per_class, sure_prob, alike
        self.faces = {}  # class -> list of (face, probs)
        self.used = 0

    def pool(self, probs, tile_faces, boxes, sure, below, alike):
        pooled = original(probs, tile_faces, boxes, sure, below, alike)
        entries = [(f, p) for cls in self.faces.values() for f, p in cls]
        doubted = np.flatnonzero(pooled.max(1) < below)
        if entries and len(doubted):
            g_faces = np.stack([f for f, _ in entries]); g_probs = np.stack([p for _, p in entries])
            both = np.concatenate([tile_faces, g_faces])
            like = tw.likenesses(both, doubted)[:, len(tile_faces):]
            for row, i in enumerate(doubted):
                match = like[row] >= self.alike
                if match.any():
                    self.used += 1
                    pooled[i] = np.concatenate([pooled[i][None], g_probs[match]]).mean(0)
        confident = np.flatnonzero((probs.max(1) >= self.sure_prob) & sure)
        for i in confident:
            cls = int(probs[i].argmax())
            bucket = self.faces.setdefault(cls, [])
            bucket.append((tile_faces[i], probs[i]))
            del bucket[:-self.per_class]
        return pooled


def read(name, mode):
    model, data = READERS[name]
    detector = TileDetector(model, conf=ev.MAP_CONF)
    gallery = Gallery(alike=float(mode)) if mode != "base" else None
    backend.pool_twins = gallery.pool if gallery else original

    def predict(path):
        dets = detector.detect(path)
        return ev.Prediction(dets.xyxy, dets.confidence, dets.class_id)

    start = time.time()
    result = ev.evaluate(predict, ev.labelled_images(data), 0.25, f"{name} {mode}", str(data), top_k=8)
    return {"tile_errors": result.tile_errors, "misread": result.misclassified, "missed": result.missed,
            "extra": result.extra, "used": gallery.used if gallery else 0, "s": round(time.time() - start),
            "top": [[f"{c.true}->{c.predicted}", c.count] for c in result.top_confusions]}


if __name__ == "__main__":
    out = Path(__file__).with_name("results.json")
    done = json.loads(out.read_text()) if out.exists() else {}
    for name in sys.argv[1].split(","):
        for mode in sys.argv[2].split(","):
            key = f"{name} {mode}"
            if key in done:
                continue
            done[key] = read(name, mode)
            out.write_text(json.dumps(done, indent=1))
            print(key, done[key], flush=True)
