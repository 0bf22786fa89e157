"""Photos with no tile, only text: 24 drawn images of clock-like digits ("0:00:12:345 67") in random colours and
sizes on plain random backgrounds, 1280 x 720, read by each model; how many get any box, and how many boxes.
Session 43 (README.md, "Worse"); candidate_0.24.0/print_probe.py reads the same images:

    .venv/bin/python benchmarks/results/candidate_0.23.0/text_probe.py MODEL [MODEL ...]
"""

import glob
import sys
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw, ImageFont

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
from vision.detector import TileDetector  # noqa: E402
from vision.imageio import LoadedImage  # noqa: E402


def clock_images() -> list[np.ndarray]:
    fonts = glob.glob("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf") + glob.glob(
        "/usr/share/fonts/**/*.ttf", recursive=True)[:3]
    rng = np.random.default_rng(0)
    images = []
    for i in range(24):
        image = Image.new("RGB", (1280, 720), tuple(int(x) for x in rng.integers(0, 256, 3)))
        draw = ImageDraw.Draw(image)
        colour = tuple(int(x) for x in rng.integers(0, 256, 3))
        font = ImageFont.truetype(fonts[i % len(fonts)], int(rng.integers(24, 80)))
        for _ in range(int(rng.integers(1, 6))):
            text = "0:00:%02d:%03d %d" % (rng.integers(60), rng.integers(1000), rng.integers(100))
            draw.text((int(rng.integers(0, 900)), int(rng.integers(0, 650))), text, fill=colour, font=font)
        images.append(np.asarray(image))
    return images


if __name__ == "__main__":
    images = clock_images()
    for model in sys.argv[1:]:
        reader = TileDetector(Path(model))
        counts = [len(reader.detect(LoadedImage.from_array(x)).xyxy) for x in images]
        print(f"{model}: {sum(c > 0 for c in counts)} of {len(images)} images boxed, {sum(counts)} boxes {counts}")
