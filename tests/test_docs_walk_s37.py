"""What a new user met walking the documentation's commands (session 37): help texts that lost their defaults, a
`--backend` typo that wrote records before failing, messages that named the wrong option or the wrong problem, a
missing photo that printed no JSON under --json, and `label export --out x.zip` writing JSON into a .zip."""

from __future__ import annotations

import json
import re
import zipfile
from pathlib import Path

import numpy as np
import pytest
import typer
from PIL import Image
from typer.testing import CliRunner

from mjsnap.cli import app

runner = CliRunner()
ROOT = typer.main.get_command(app)
# what rich, which renders --help, takes for a markup tag and drops from the text: "[all CPUs]", "[default: ...]"
RICH_TAG = re.compile(r"(?<!\\)\[[a-z#/@][^\[]*?\]")


def _commands(group, path: tuple[str, ...] = ()):
    for name, command in group.commands.items():
        if hasattr(command, "commands"):
            yield from _commands(command, (*path, name))
        else:
            yield (*path, name), command


def test_no_help_text_holds_what_rich_would_drop_as_markup():
    swallowed = [(" ".join(path), param.name, param.help) for path, command in _commands(ROOT)
                 for param in command.params if RICH_TAG.search(getattr(param, "help", None) or "")]
    assert swallowed == []


@pytest.mark.parametrize(
    ("command", "shown"),
    [
        (["batch"], ["(default: all CPUs)", "(default: models/current)", "(default: when no --discarder is given)"]),
        (["score"], ["(default: when no --discarder is given)"]),
        (["synth"], ["(default: 640, or --imgsz-max if less)"]),
        (["label", "export"], ["yolo-zip for an --out ending in .zip"]),
    ],
)
def test_help_shows_the_defaults_it_names(command, shown):
    result = runner.invoke(app, [*command, "--help"], terminal_width=300)
    assert result.exit_code == 0, result.output
    text = _flat(result.output)
    for words in shown:
        assert words in text


def _flat(output: str) -> str:
    """Rich's boxed output as one line of words, however it wrapped."""
    return " ".join(re.sub(r"[│╭╮╰╯─]", " ", output).split())


def _photo(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    Image.fromarray(np.full((60, 80, 3), 90, np.uint8)).save(path)
    return path


def test_batch_refuses_an_unknown_backend_before_writing_anything(tmp_path: Path):
    photo = _photo(tmp_path / "photos" / "a.jpg")
    (photo.parent / "a.json").write_text("not json")  # a bad sidecar is recorded before any worker starts
    out = tmp_path / "r.jsonl"
    result = runner.invoke(app, ["batch", str(photo.parent), "--rules", "xian", "--out", str(out), "--backend",
                                 "openvnio", "--no-progress"])
    assert result.exit_code == 2, result.output
    assert "'openvnio': use one of auto, openvino, onnxruntime, ultralytics" in _flat(result.output)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["photos"]


def test_quantize_names_its_model_argument_not_a_model_option(tmp_path: Path):
    photo = _photo(tmp_path / "photos" / "a.jpg")
    result = runner.invoke(app, ["train-two-stage", "quantize", str(tmp_path / "nomodel"), "--photos",
                                 str(photo.parent), "--out", str(tmp_path / "new")])
    assert result.exit_code == 2, result.output
    assert f"MODEL {tmp_path / 'nomodel'}: no such model directory" in result.stderr
    assert "--model" not in result.stderr and not (tmp_path / "new").exists()


def test_score_json_of_a_missing_photo_is_the_unreadable_image_object(tmp_path: Path):
    missing = tmp_path / "IMG_0001.jpg"
    result = runner.invoke(app, ["score", str(missing), "--rules", "xian", "--json"])
    assert result.exit_code == 2, result.output
    got = json.loads(result.stdout)
    assert (got["valid"], got["reason"], got["read"], got["photo"]) == (False, "unreadable_image", None,
                                                                        {"image": str(missing)})
    assert f"{missing}: no such file" in got["error"] and f"{missing}: no such file" in result.stderr
    plain = runner.invoke(app, ["score", str(missing), "--rules", "xian"])  # without --json: the message only
    assert plain.exit_code == 2 and plain.stdout == ""


def test_label_import_of_a_missing_export_says_so(tmp_path: Path):
    result = runner.invoke(app, ["label", "import", str(tmp_path / "nothere"), "--to", str(tmp_path / "ds")])
    assert result.exit_code == 2, result.output
    assert result.stderr.strip() == f"error: {tmp_path / 'nothere'}: no such file or folder"
    assert not (tmp_path / "ds").exists()


def _dataset(folder: Path) -> Path:
    from scoring.tiles import CLASS_NAMES

    _photo(folder / "images" / "train" / "p1.jpg")
    (folder / "labels" / "train").mkdir(parents=True)
    (folder / "labels" / "train" / "p1.txt").write_text("0 0.5 0.5 0.2 0.3\n")
    (folder / "data.yaml").write_text(f"train: images/train\nval: images/val\nnc: {len(CLASS_NAMES)}\n"
                                      f"names: {json.dumps(list(CLASS_NAMES))}\n")
    return folder


@pytest.mark.parametrize(
    ("out", "fmt", "zipped"),
    [("set.zip", None, True), ("tasks.json", None, False), ("set.ZIP", None, True),
     ("set.zip", "labelstudio-json", False), ("tasks.json", "yolo-zip", True)],
)
def test_label_export_takes_its_format_from_the_out_suffix_unless_told(tmp_path: Path, out, fmt, zipped):
    dataset = _dataset(tmp_path / "ds")
    args = ["label", "export", str(dataset), "--out", str(tmp_path / out)] + (["--format", fmt] if fmt else [])
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert zipfile.is_zipfile(tmp_path / out) == zipped
    assert (tmp_path / out).with_suffix(".config.xml").exists() == (not zipped)


@pytest.mark.parametrize("word", ["setapart", "Last", "foo"])
def test_a_misspelt_win_tile_convention_is_not_reported_as_bad_tile_letters(word):
    from mjsnap.commands.photo_options import PhotoOptionError, read_options, reading_of

    with pytest.raises(PhotoOptionError) as typed:
        read_options(win_tile=word, face_up_kong="kong_exposed", kong_kind=None, meld_type=None, reread_tiles=3)
    assert str(typed.value) == (f"--win-tile {word}: not a tile name (a number and a suit such as 5p, or one of "
                                "E S W N C F P); or give set_apart, last, none")
    with pytest.raises(PhotoOptionError) as written:  # a batch sidecar's field, as the sidecar writes it
        reading_of({"win_tile": word})
    assert str(written.value).startswith(f'win_tile "{word}": not a tile name')


@pytest.mark.parametrize("tile", ["9x", "55p"])
def test_a_bad_tile_name_keeps_the_tile_parsers_reason(tile):
    from mjsnap.commands.photo_options import PhotoOptionError, read_options

    with pytest.raises(PhotoOptionError) as refused:
        read_options(win_tile=tile, face_up_kong="kong_exposed", kong_kind=None, meld_type=None, reread_tiles=3)
    assert "not a tile name" not in str(refused.value) and str(refused.value).endswith("or give set_apart, last, none")


def test_weimaque_groups_typed_unquoted_get_a_hint_to_quote_them():
    result = runner.invoke(app, ["weimaque", "碰", "柒柒柒", "煨", "3", "3", "3"])
    assert result.exit_code == 2, result.output
    assert result.stderr.strip() == ("error: bad hand: group 1 (碰) has no cards; each argument is one group: quote a "
                                     "group with its cards, e.g. '碰 柒柒柒'")
    one = runner.invoke(app, ["weimaque", "碰 柒柒柒, 煨, 雀 捌捌"])  # one argument: the group is just empty
    assert one.exit_code == 2 and one.stderr.strip() == "error: bad hand: group 2 (煨) has no cards"


@pytest.mark.parametrize(
    ("hand", "message"),
    [
        ("IMG_0001", "bad hand: unexpected character 'I' at position 0: use digits with m/p/s/z, or E S W N C F P "
                     "(and no photo of that name here)"),
        ("photo1", "bad hand: suit letter 'p' at position 0 has no digits before it (and no photo of that name here)"),
        ("123m456m789m234s5x", "bad hand: unexpected character 'x' at position 17: use digits with m/p/s/z, or "
                               "E S W N C F P"),
        ("123m456m789m234s5s", "--win is required"),
    ],
)
def test_score_says_what_is_wrong_with_the_hand_before_asking_for_win(hand, message, tmp_path: Path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # no file of the hand's name here
    result = runner.invoke(app, ["score", hand, "--rules", "xian", "--json"])
    assert result.exit_code == 2, result.output
    assert result.stderr.strip() == f"error: {message}" if message.startswith("bad") else message in result.stderr
    assert json.loads(result.stdout)["reason"] == ("invalid_tiles" if message.startswith("bad") else "missing_win_tile")
