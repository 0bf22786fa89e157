"""`mjsnap synth --workers N` ends quietly: at its end and on Ctrl-C no worker prints a traceback.

Forked workers kept `mjsnap`'s SIGTERM handler (it raises KeyboardInterrupt), so the pool's own SIGTERM when it
closed printed a traceback from every worker after a run that had gone well."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

# As a terminal starts the console script, with Ctrl-C live (a test runner may hand it ignored)
LAUNCH = "import signal; signal.signal(signal.SIGINT, signal.default_int_handler); from mjsnap.cli import main; main()"


def synth_command(out: Path, n: int) -> list[str]:
    return [sys.executable, "-c", LAUNCH, "synth", "--n", str(n), "--workers", "2", "--out", str(out), "--seed", "3",
            "--no-art", "--imgsz-min", "256", "--imgsz-max", "320"]  # fmt: skip


@pytest.mark.timeout(120)
def test_a_run_with_workers_ends_without_a_traceback(tmp_path: Path) -> None:
    done = subprocess.run(synth_command(tmp_path / "s", 6), capture_output=True, text=True, timeout=100)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr and "KeyboardInterrupt" not in done.stderr, done.stderr
    assert len(list((tmp_path / "s" / "images").rglob("*.jpg"))) == 6


@pytest.mark.timeout(120)
def test_ctrl_c_says_how_far_it_got_without_a_traceback(tmp_path: Path) -> None:
    out = tmp_path / "s"
    process = subprocess.Popen(synth_command(out, 400), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               start_new_session=True)  # fmt: skip
    deadline = time.monotonic() + 60
    while not list(out.glob("images/*/*.jpg")):  # the workers are drawing
        assert process.poll() is None and time.monotonic() < deadline, "no photo was written"
        time.sleep(0.05)
    os.killpg(process.pid, signal.SIGINT)
    _, stderr = process.communicate(timeout=60)
    assert process.returncode == 130
    assert "interrupted after" in stderr and "of 400 photos" in stderr and "same --seed" in stderr
    assert "Traceback" not in stderr and "KeyboardInterrupt" not in stderr, stderr
