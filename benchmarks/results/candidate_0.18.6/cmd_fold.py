"""A classifier that never saw cmd: unseen_sets.run_fold on every synthetic crop of work/s24/crops96 (8 epochs, 500 a
class, photo augmentation), read on 150 gleitz crops a class (it saw them: only to satisfy run_fold)."""
import os, sys, tempfile
from pathlib import Path
from types import SimpleNamespace
REPO = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(REPO)); sys.path.insert(0, str(REPO / "benchmarks"))
os.chdir(REPO)
os.environ.setdefault("YOLO_CONFIG_DIR", tempfile.mkdtemp(prefix="mjsnap-yolo-"))
import unseen_sets
from mjsnap.commands.train import PRETRAINED_MAHJONG_DETECTOR, _pretrained_start
groups = unseen_sets.group_crops(Path("work/s24/crops96"))
groups["cmd"] = groups["gleitz"][:400]
args = SimpleNamespace(seed=0, per_class=500, eval_per_class=150, minutes=45, epochs=8, keep_weights=Path("work/s24/folds96"))
with tempfile.TemporaryDirectory(prefix="mjsnap-unseen-") as tmp:
    unseen_sets.run_fold("cmd", groups, "photo", args, _pretrained_start(PRETRAINED_MAHJONG_DETECTOR), Path(tmp))
