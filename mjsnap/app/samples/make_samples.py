"""Regenerate the bundled sample photos from the synthetic generator (our own drawn faces, no ../shared art).

    .venv/bin/python -m mjsnap.app.samples.make_samples

Each sample is photo ``index`` of seed 11 with a gentle camera tilt; ``samples.json`` keeps the hand each one shows
(the generator's ground truth) so a person trying the app can check the reading.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

from PIL import Image

from vision.synth.scene import SynthOptions, make_sample

HERE = Path(__file__).parent
SEED = 11
OPTIONS = SynthOptions(imgsz_min=1200, imgsz_max=1400, max_tilt=20.0, tileart=None)
CHOSEN = {  # file name -> photo index: a plain win, seven pairs, and melds with a concealed kong
    "plain_win.jpg": 25,
    "seven_pairs.jpg": 32,
    "kong_and_chows.jpg": 22,
}
JPEG_QUALITY = 80


def main() -> None:
    truth = {}
    for name, index in CHOSEN.items():
        sample = make_sample(SEED, index, OPTIONS)
        buffer = io.BytesIO()
        Image.fromarray(sample.image).save(buffer, format="JPEG", quality=JPEG_QUALITY, optimize=True)
        (HERE / name).write_bytes(buffer.getvalue())
        truth[name] = {"seed": SEED, "index": index, "hand": sample.hand.to_json()}
        print(f"{name}: {len(buffer.getvalue()) // 1024} KB, {sample.image.shape[1]}x{sample.image.shape[0]}")
    (HERE / "samples.json").write_text(json.dumps(truth, indent=1, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
