"""Shared fixtures. Tests that need ../shared skip with a reason when it is absent."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

# ultralytics must never try the network or write settings into $HOME during tests.
os.environ.setdefault("YOLO_OFFLINE", "1")
os.environ.setdefault("YOLO_AUTOINSTALL", "0")
os.environ.setdefault("YOLO_CONFIG_DIR", str(Path(os.environ.get("TMPDIR", "/tmp")) / "mjsnap-yolo-config"))

from mjsnap.paths import shared_dir  # noqa: E402


@pytest.fixture(scope="session")
def shared() -> Path:
    """The ../shared folder; skips the test when it is not present."""
    path = shared_dir()
    if path is None:
        pytest.skip("../shared is not present (set MJSNAP_SHARED to point at it)")
    return path


@pytest.fixture(scope="session")
def tiny_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An untrained 36-class model directory (tests/detector_model.py), built once for the session."""
    pytest.importorskip("ultralytics", reason="building the test model needs the train extra")
    from detector_model import build_tiny_model

    return build_tiny_model(tmp_path_factory.getbasetemp() / "tiny-detector")
