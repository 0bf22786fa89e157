"""Why 0.20.0 was not promoted: tests/test_detector.py's phone photos (generated stream 20261202, 640-800 px, tilt up
to 35 degrees, enlarged to 12 MP, stored sideways with EXIF orientation 6, JPEG 92) read by each model with OpenVINO
(`auto`: the tile detector in bf16) and with ONNX Runtime (all f32), on the test's first 6 photos and on 30.

    .venv/bin/python benchmarks/results/candidate_0.20.0/phone_backends.py models/current work/exp27/model_0.20.0
"""

import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
sys.path[:0] = [str(REPO), str(REPO / "tests")]
from test_detector import PHONE_PHOTOS, write_phone_photos  # noqa: E402
from test_shipped_model import GENERATED_SEED  # noqa: E402
from vision import evaluate as ev  # noqa: E402

PHOTOS = 30

photos = write_phone_photos(GENERATED_SEED, PHOTOS, Path(tempfile.mkdtemp(prefix="phone-backends-")))["phone"]
print("| model | backend | photos | tile accuracy | tile errors (missed / misread / extra) | top confusions |")
print("|---|---|---:|---:|---|---|")
for model in sys.argv[1:]:
    for backend in ("auto", "onnxruntime"):
        predictor, chosen = ev.detector_predictor(Path(model), backend)
        for n in (PHONE_PHOTOS, PHOTOS):
            r = ev.evaluate(predictor, photos[:n], 0.25, model, chosen)
            confusions = ", ".join(f"{c.true}->{c.predicted} {c.count}" for c in r.top_confusions[:4])
            print(f"| `{model}` | {chosen} | {n} | {r.tile_accuracy:.4f} | {r.tile_errors} ({r.missed} / "
                  f"{r.misclassified} / {r.extra}) | {confusions} |", flush=True)
