"""The `mjsnap` command as a whole: --version, the output-path check every command shares, and the one --conf
range of the commands that run the detector."""

from __future__ import annotations

import json
from importlib.metadata import version

import pytest
from PIL import Image
from typer.testing import CliRunner

from mjsnap.cli import app
from mjsnap.commands import version as version_command
from mjsnap.paths import output_dir_problem, output_file_problem

runner = CliRunner()


@pytest.mark.parametrize(
    ("meta", "expected"),
    [
        ({"version": "9.9.9"}, "mjsnap {package}, model 9.9.9"),
        ({"classes": []}, "mjsnap {package}, model without a version"),
        ("not json", "mjsnap {package}, model unreadable"),
        (None, "mjsnap {package} (no model in {models}/current)"),
    ],
)
def test_version_names_the_package_and_the_shipped_model(tmp_path, monkeypatch, meta, expected):
    monkeypatch.setattr(version_command, "MODELS_DIR", tmp_path)
    if meta is not None:
        (tmp_path / "current").mkdir()
        (tmp_path / "current" / "meta.json").write_text(meta if isinstance(meta, str) else json.dumps(meta))
    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0
    assert result.output == expected.format(package=version("mjsnap"), models=tmp_path) + "\n"


@pytest.mark.parametrize(
    ("kind", "path", "problem"),
    [
        ("file", "new.jsonl", None),
        ("file", "new/deeper/out.jsonl", None),
        ("file", "afile", None),  # replaced, as commands do with their own outputs
        ("file", "adir", "{tmp}/adir is a folder, not a file"),
        ("file", "afile/out.jsonl", "{tmp}/afile/out.jsonl cannot be made: {tmp}/afile is a file, not a folder"),
        ("file", "afile/x/out.jsonl", "cannot be made: {tmp}/afile is a file"),
        ("dir", "adir", None),
        ("dir", "new/deeper", None),
        ("dir", "afile", "{tmp}/afile is a file, not a folder"),
        ("dir", "afile/set", "{tmp}/afile/set cannot be made: {tmp}/afile is a file, not a folder"),
    ],
)
def test_output_path_problems(tmp_path, kind, path, problem):
    (tmp_path / "afile").write_text("x")
    (tmp_path / "adir").mkdir()
    check = output_file_problem if kind == "file" else output_dir_problem
    found = check(tmp_path / path)
    if problem is None:
        assert found is None
    else:
        assert found is not None and problem.format(tmp=tmp_path) in found


@pytest.mark.parametrize("command", ["detect", "read", "batch"])
@pytest.mark.parametrize(("conf", "accepted"), [("0", True), ("0.25", True), ("0.99", True), ("1", False),
                                                ("5", False), ("-0.1", False)])
def test_every_command_that_runs_the_detector_takes_one_conf_range(tmp_path, monkeypatch, command, conf, accepted):
    """Accepted values pass the option and fail later (no model here); refused ones stop at --conf."""
    monkeypatch.setenv("MJSNAP_MODELS", str(tmp_path / "no-models"))
    photo = tmp_path / "hand.png"
    Image.new("RGB", (8, 8)).save(photo)
    args = {"detect": ["detect", str(photo), "--model", str(tmp_path / "no-model")],
            "read": ["read", str(photo), "--model", str(tmp_path / "no-model")],
            "batch": ["batch", str(photo), "--rules", "xian", "--out", str(tmp_path / "r.jsonl"), "--retry-errors"]}
    result = runner.invoke(app, [*args[command], "--conf", conf])
    assert result.exit_code == 2
    assert ("0 <= conf < 1" in result.output) is not accepted, result.output
