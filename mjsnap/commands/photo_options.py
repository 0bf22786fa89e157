"""What a photo cannot show, as command-line options shared by `mjsnap read`, `mjsnap score PHOTO` and
`mjsnap batch`: how to read it (the fields of vision.normalize.ReadOptions) and, for scoring, who fed its melds.
One name, one help text and one parser per option, so every command reads a photo the same way.

A batch sidecar (and a batch record's ``context``) writes the reading options as fields named as the options'
parameters (READING), with the command line's values: ``{"win_tile": "5p", "kong_kind": ["C"], "meld_type":
{"1": "kong_added"}, "reread_tiles": 0}``; ``reading_of`` and ``reading_fields`` go between that form and ReadOptions.

Melds are numbered from 0 in reading order, as `mjsnap read` lists them (rows from the far side, left to right).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import typer

from scoring.hand import N_SEATS

WIN_TILE = typer.Option("set_apart", "--win-tile", help="set_apart | last | none, or a tile (5p) to name it")
FACE_UP_KONG = typer.Option("kong_exposed", "--face-up-kong", help="kong_exposed | kong_added")
KONG_KIND = typer.Option(None, "--kong-kind", help="kind of a kong shown as four backs (repeat)")
MELD_TYPE = typer.Option(None, "--meld-type", help="I=TYPE: switch meld I's type (repeat)")
REREAD_TILES = typer.Option(
    3, "--reread-tiles", help="a group that is no meld or a hand that does not win: re-read at most this many "
    "tiles as the classifier's next choices when that mends it (0-3; 0: off)")
MELD_FROM = typer.Option(
    None, "--meld-from", help="I=SEAT: meld I was fed by seat SEAT (an exposed kong: who discarded its 4th tile; "
    "repeat)")
# the parameter names of the reading options: to tell whether one was given where no photo is read, and the fields
# a sidecar writes them as
READING = ("win_tile", "face_up_kong", "kong_kind", "meld_type", "reread_tiles")
WIN_TILE_CONVENTIONS = ("set_apart", "last", "none")
# the option behind each ReadOptions field, so a refused value is reported as the user typed it
OPTION_OF_FIELD = {
    "min_confidence": "--conf", "win_tile": "--win-tile", "win_tile_kind": "--win-tile",
    "face_up_kong": "--face-up-kong", "concealed_kong_kinds": "--kong-kind", "meld_types": "--meld-type",
    "reread_tiles": "--reread-tiles",
}  # fmt: skip
# the name a sidecar writes each ReadOptions field under: the option's parameter name
KEY_OF_FIELD = {field: option.removeprefix("--").replace("-", "_") for field, option in OPTION_OF_FIELD.items()}


class PhotoOptionError(ValueError):
    """An option value the reader cannot take; the one-line message names the option (or the field)."""


def read_options(
    *,
    win_tile: str,
    face_up_kong: str,
    kong_kind: list[str] | None,
    meld_type: list[str] | None,
    reread_tiles: int,
    min_confidence: float | None = None,
):
    """The checked vision.normalize.ReadOptions of the options; PhotoOptionError says which value is refused."""
    fields: dict[str, Any] = {
        **_win_tile_fields(win_tile),
        "face_up_kong": face_up_kong,
        "concealed_kong_kinds": kong_kind or [],
        "meld_types": indexed("--meld-type", meld_type or [], "TYPE", "0=kong_added"),
        "reread_tiles": reread_tiles,
    }
    if min_confidence is not None:
        fields["min_confidence"] = min_confidence
    return _checked(fields, OPTION_OF_FIELD, _as_typed)


def reading_of(written: dict[str, Any]):
    """The checked ReadOptions of reading options written as fields (a sidecar's, a batch record's context); a field
    not named keeps its default. PhotoOptionError names the field, with the command line's reason."""
    fields: dict[str, Any] = {}
    if "win_tile" in written:
        fields.update(_win_tile_fields(written["win_tile"]))
    if "face_up_kong" in written:
        fields["face_up_kong"] = written["face_up_kong"]
    if "kong_kind" in written:
        fields["concealed_kong_kinds"] = written["kong_kind"]
    if "meld_type" in written:
        fields["meld_types"] = _meld_types(written["meld_type"])
    if "reread_tiles" in written:
        fields["reread_tiles"] = written["reread_tiles"]
    return _checked(fields, KEY_OF_FIELD, _as_json)


def reading_fields(options) -> dict[str, Any]:
    """The reading options that differ from the defaults, written as fields (JSON-ready: meld numbers as strings),
    so that two ways of writing one reading compare equal."""
    from vision.normalize import ReadOptions

    defaults = _written(ReadOptions())
    return {name: value for name, value in _written(options).items() if value != defaults[name]}


def _written(options) -> dict[str, Any]:
    return {
        "win_tile": options.win_tile_kind or options.win_tile,
        "face_up_kong": options.face_up_kong,
        "kong_kind": list(options.concealed_kong_kinds),
        "meld_type": {str(meld): kind for meld, kind in sorted(options.meld_types.items())},
        "reread_tiles": options.reread_tiles,
    }


def _win_tile_fields(win_tile: Any) -> dict[str, Any]:
    """--win-tile names a convention or the tile itself: ReadOptions keeps the two apart."""
    convention = win_tile if win_tile in WIN_TILE_CONVENTIONS else "set_apart"
    return {"win_tile": convention, "win_tile_kind": None if win_tile == convention else win_tile}


def _meld_types(written: Any) -> dict[int, Any]:
    """A written meld_type ({"I": TYPE}, as JSON writes meld numbers) -> {I: TYPE}; the types are ReadOptions' to
    check."""
    if not isinstance(written, dict) or not all(isinstance(meld, str) and meld.isdecimal() for meld in written):
        raise PhotoOptionError(f'meld_type {_as_json(written)}: write {{"I": TYPE}}, e.g. {{"0": "kong_added"}} '
                               "(melds count from 0)")
    return {int(meld): kind for meld, kind in written.items()}


def _checked(fields: dict[str, Any], names: dict[str, str], shown: Callable[[Any], str]):
    """ReadOptions of the fields, strictly typed (a sidecar's true is no count of tiles); a refused value is reported
    as the user wrote it: under its name in ``names``, ``shown``."""
    from pydantic import ValidationError

    from vision.normalize import ReadOptions

    try:
        return ReadOptions.model_validate(fields, strict=True)
    except ValidationError as exc:
        raise PhotoOptionError("; ".join(_refused(error, names, shown) for error in exc.errors())) from None


def meld_feeders(items: list[str] | None) -> dict[int, int]:
    """``--meld-from I=SEAT`` items -> {meld index: seat}."""
    seats = indexed("--meld-from", items or [], "SEAT", "0=2")
    for index, seat in seats.items():
        if not seat.isdecimal() or not 0 <= int(seat) < N_SEATS:
            raise PhotoOptionError(f"--meld-from {index}={seat}: the seat is 0-{N_SEATS - 1}")
    return {index: int(seat) for index, seat in seats.items()}


def indexed(option: str, items: list[str], value: str, example: str) -> dict[int, str]:
    """``I=VALUE`` items -> {I: VALUE}; a meld named twice is refused rather than the last one silently winning."""
    out: dict[int, str] = {}
    for item in items:
        index, sep, text = item.partition("=")
        if not sep or not index.strip().isdecimal() or not text.strip():
            raise PhotoOptionError(f"{option} {item!r}: write I={value}, e.g. {example} (melds count from 0)")
        if int(index) in out:
            raise PhotoOptionError(f"{option}: meld {int(index)} is named twice")
        out[int(index)] = text.strip()
    return out


def _refused(error: dict[str, Any], names: dict[str, str], shown: Callable[[Any], str]) -> str:
    option = names.get(str(error["loc"][0]), str(error["loc"][0]))
    message = error["msg"].removeprefix("Value error, ")
    if error["loc"][0] == "win_tile_kind":  # a word that is no convention was read as a tile name
        word = error["input"]
        if isinstance(word, str) and not any(c.isdecimal() for c in word) and any(c.islower() for c in word):
            # a misspelt convention (setapart, Last): the tile parser's complaint about its letters would mislead
            message = "not a tile name (a number and a suit such as 5p, or one of E S W N C F P)"
        message += f"; or give {', '.join(WIN_TILE_CONVENTIONS)}"
    return f"{option} {shown(error['input'])}: {message}"


def _as_typed(value: Any) -> str:
    """A value as the command line gives it: a list for --kong-kind, whose items are checked together."""
    return " ".join(map(str, value)) if isinstance(value, list) else str(value)


def _as_json(value: Any) -> str:
    """A value as a sidecar writes it, so that true and "2" do not pass for numbers."""
    return json.dumps(value, ensure_ascii=False, default=str)
