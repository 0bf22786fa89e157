"""Reading tiles from photos: detector, normalizer, data synthesis, training.

ONNX Runtime (on Linux since 1.29) and OpenVINO, with NNCF, send usage telemetry by default and keep a device id in
$HOME, even when they only run a model. mjsnap runs offline and sends nothing, so before either is imported their
telemetry is switched off: ORT_DISABLE_TELEMETRY (a user's own value still wins), and no importable
openvino_telemetry, without which OpenVINO's converter and NNCF use their silent stubs.
"""

import os
import sys

os.environ.setdefault("ORT_DISABLE_TELEMETRY", "1")
sys.modules.setdefault("openvino_telemetry", None)
