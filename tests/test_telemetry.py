"""mjsnap's exports and quantizing run OpenVINO's model converter and NNCF, which send usage statistics to Google
Analytics by default and leave a client id in ~/intel; vision.train.configure_offline keeps them silent."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("torch", reason="torch is in the train extra")
pytest.importorskip("openvino.tools.ovc", reason="OpenVINO's model converter is not installed")

ROOT = Path(__file__).resolve().parent.parent
CONVERT = """
import torch
from vision.train import configure_offline
configure_offline()
import openvino as ov
import openvino.tools.ovc.telemetry_utils as telemetry
ov.convert_model(torch.nn.Sequential(torch.nn.Conv2d(3, 4, 3)), example_input=torch.zeros(1, 3, 8, 8))
print(telemetry.tm.__name__)
"""


def test_a_model_conversion_sends_nothing_and_leaves_nothing_in_home(tmp_path):
    env = {key: value for key, value in os.environ.items() if key not in {"CI", "TF_BUILD", "JENKINS_URL"}}
    env |= {"HOME": str(tmp_path), "PYTHONPATH": str(ROOT)}  # not in CI: where the converter would otherwise send
    result = subprocess.run([sys.executable, "-c", CONVERT], env=env, cwd=ROOT, capture_output=True, text=True,
                            timeout=300)
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.split()[-1] == "openvino.tools.ovc.telemetry_stub"
    assert not (tmp_path / "intel").exists()
