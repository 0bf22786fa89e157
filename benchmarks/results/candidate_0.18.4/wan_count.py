"""How many tiles the 萬 check reads on cmd val with the shipped model (the recognizer's extra work)."""
import json, sys, tempfile
from pathlib import Path
sys.path.insert(0, "/work/main")
from vision.detector import TileDetector
from vision.imageio import read_image
SHIPPED = Path("models/current")
doubt = float(sys.argv[1]) if len(sys.argv) > 1 else 0.1
with tempfile.TemporaryDirectory() as tmp:
    tmp = Path(tmp)
    meta = json.loads((SHIPPED / "meta.json").read_text())
    for part in ("detector", "classifier", "characters", *meta["classifier"].get("ensemble", [])):
        (tmp / part).symlink_to((SHIPPED / part).resolve())
    meta["characters"]["wan_doubt"] = doubt
    (tmp / "meta.json").write_text(json.dumps(meta))
    det = TileDetector(tmp)
    counts = {"wan": 0, "chars": 0}
    reader = det.stages.reader
    mark_scores, scores = reader.mark_scores, reader.scores
    reader.mark_scores = lambda c, mark: (counts.__setitem__("wan", counts["wan"] + len(c)), mark_scores(c, mark))[1]
    reader.scores = lambda c: (counts.__setitem__("chars", counts["chars"] + len(c)), scores(c))[1]
    photos = sorted(Path("/work/shared/datasets/cmd/images/val").iterdir())
    tiles = 0
    for p in photos:
        tiles += len(det.detect(read_image(p)).to_list())
    print(f"doubt {doubt}: {len(photos)} photos, {tiles} boxes kept; 萬 check read {counts['wan']} tiles, character reading {counts['chars']}")
