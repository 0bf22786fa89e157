"""How many tiles the flower check reads on cmd val with a model directory (its extra recognizer work)."""
import sys
from pathlib import Path
sys.path.insert(0, "/work/main")
from vision.detector import TileDetector
from vision.imageio import read_image
det = TileDetector(Path(sys.argv[1]))
counts = {}
reader = det.stages.reader
mark_scores = reader.mark_scores
def counted(crops, mark):
    counts[mark.characters] = counts.get(mark.characters, 0) + len(crops)
    return mark_scores(crops, mark)
reader.mark_scores = counted
photos = sorted(Path("/work/shared/datasets/cmd/images/val").iterdir())
for p in photos:
    det.detect(read_image(p))
print(len(photos), "photos;", counts)
