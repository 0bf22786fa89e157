"""mjsnap runs offline and sends nothing. ONNX Runtime (on Linux since 1.29), OpenVINO's model converter and NNCF
send usage telemetry by default and keep a device id in $HOME, even when they only run a model; importing `vision`
switches them off. Each case runs in a fresh process with an empty HOME, where telemetry would leave its files."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
MODEL = ROOT / "models" / "current"
SAMPLE = ROOT / "mjsnap" / "app" / "samples" / "plain_win.jpg"

READ_A_PHOTO = f"""
from vision.detector import TileDetector
from vision.imageio import read_image
for backend in ("openvino", "onnxruntime"):
    TileDetector({str(MODEL)!r}, backend=backend).detect(read_image({str(SAMPLE)!r}))
"""
CONVERT_A_MODEL = """
import vision
import torch
import openvino as ov
import openvino.tools.ovc.telemetry_utils as telemetry
ov.convert_model(torch.nn.Sequential(torch.nn.Conv2d(3, 4, 3)), example_input=torch.zeros(1, 3, 8, 8))
print(telemetry.tm.__name__)
"""


def _run_in_fresh_home(code: str, home: Path) -> str:
    # not in CI either: telemetry libraries stay quiet there on their own
    env = {key: value for key, value in os.environ.items() if key not in {"CI", "TF_BUILD", "JENKINS_URL"}}
    env.pop("ORT_DISABLE_TELEMETRY", None)
    env |= {"HOME": str(home), "PYTHONPATH": str(ROOT)}
    result = subprocess.run([sys.executable, "-c", code], env=env, cwd=ROOT, capture_output=True, text=True,
                            timeout=300)
    assert result.returncode == 0, result.stderr[-2000:]
    return result.stdout.strip()


def test_reading_a_photo_leaves_nothing_in_home(tmp_path):
    if not (MODEL / "meta.json").is_file():
        pytest.skip(f"no model at {MODEL}")
    _run_in_fresh_home(READ_A_PHOTO, tmp_path)
    assert sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*")) == []


def test_converting_a_model_sends_nothing_and_leaves_nothing_in_home(tmp_path):
    pytest.importorskip("torch", reason="torch is in the train extra")
    pytest.importorskip("openvino.tools.ovc", reason="OpenVINO's model converter is not installed")
    assert _run_in_fresh_home(CONVERT_A_MODEL, tmp_path) == "openvino.tools.ovc.telemetry_stub"
    assert sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*")) == []
