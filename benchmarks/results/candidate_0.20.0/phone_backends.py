"""Why 0.20.0 was not promoted: tests/test_detector.py's phone photos (generated stream 20261202, 640-800 px, tilt up
to 35 degrees, enlarged to 12 MP, stored sideways with EXIF orientation 6, JPEG 92) read by each model with OpenVINO
(`auto`: the tile detector in bf16) and with ONNX Runtime (all f32), on the test's first 6 photos and on 30.

    .venv/bin/python benchmarks/results/candidate_0.20.0/phone_backends.py models/current work/exp27/model_0.20.0
"""

import sys
import tempfile
from pathlib import Path

import numpy as np
from PIL import Image

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
from vision import evaluate as ev  # noqa: E402
from vision.synth.scene import SynthOptions, make_sample  # noqa: E402

SEED, PHOTOS, TEST_PHOTOS = 20261202, 30, 6  # tests/test_shipped_model.GENERATED_SEED, tests/test_detector.PHONE_PHOTOS

folder = Path(tempfile.mkdtemp(prefix="phone-backends-"))
photos = []
for index in range(PHOTOS):  # as tests/test_detector.phone_photos writes them
    sample = make_sample(SEED, index, SynthOptions(imgsz_min=640, imgsz_max=800, max_tilt=35.0))
    boxes = np.array([tile.box for tile in sample.tiles]).reshape(-1, 4)
    classes = np.array([tile.cls for tile in sample.tiles])
    factor = 4032 / max(sample.image.shape[:2])
    upright = Image.fromarray(sample.image).resize(
        (round(sample.image.shape[1] * factor), round(sample.image.shape[0] * factor)), Image.Resampling.BICUBIC)
    exif = Image.Exif()
    exif[0x0112] = 6
    path = folder / f"{index}.jpg"
    upright.transpose(Image.Transpose.ROTATE_90).save(path, quality=92, exif=exif.tobytes())
    to_upright = np.tile([upright.width / sample.image.shape[1], upright.height / sample.image.shape[0]], 2)
    photos.append(ev.LabelledImage(path, boxes * to_upright, classes))
print("| model | backend | photos | tile accuracy | tile errors (missed / misread / extra) | top confusions |")
print("|---|---|---:|---:|---|---|")
for model in sys.argv[1:]:
    for backend in ("auto", "onnxruntime"):
        predictor, chosen = ev.detector_predictor(Path(model), backend)
        for n in (TEST_PHOTOS, PHOTOS):
            r = ev.evaluate(predictor, photos[:n], 0.25, model, chosen)
            confusions = ", ".join(f"{c.true}->{c.predicted} {c.count}" for c in r.top_confusions[:4])
            print(f"| `{model}` | {chosen} | {n} | {r.tile_accuracy:.4f} | {r.tile_errors} ({r.missed} / "
                  f"{r.misclassified} / {r.extra}) | {confusions} |", flush=True)
