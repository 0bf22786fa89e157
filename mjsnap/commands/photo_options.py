"""What a photo cannot show, as command-line options shared by `mjsnap read`, `mjsnap score PHOTO` and
`mjsnap batch`: how to read it (the fields of vision.normalize.ReadOptions) and, for scoring, who fed its melds.
One name, one help text and one parser per option, so every command reads a photo the same way.

Melds are numbered from 0 in reading order, as `mjsnap read` lists them (rows from the far side, left to right).
"""

from __future__ import annotations

from typing import Any

import typer

from scoring.hand import N_SEATS

WIN_TILE = typer.Option("set_apart", "--win-tile", help="set_apart | last | none, or a tile (5p) to name it")
FACE_UP_KONG = typer.Option("kong_exposed", "--face-up-kong", help="kong_exposed | kong_added")
KONG_KIND = typer.Option(None, "--kong-kind", help="kind of a kong shown as four backs (repeat)")
MELD_TYPE = typer.Option(None, "--meld-type", help="I=TYPE: switch meld I's type (repeat)")
REREAD_TILES = typer.Option(
    3, "--reread-tiles", help="a group that is no meld or a hand that does not win: re-read at most this many "
    "tiles as the classifier's next choices when that mends it (0: off)")
MELD_FROM = typer.Option(
    None, "--meld-from", help="I=SEAT: meld I was fed by seat SEAT (an exposed kong: who discarded its 4th tile; "
    "repeat)")
# the parameter names of the reading options, to tell whether one was given where no photo is read
READING = ("win_tile", "face_up_kong", "kong_kind", "meld_type", "reread_tiles")
WIN_TILE_CONVENTIONS = ("set_apart", "last", "none")
# the option behind each ReadOptions field, so a refused value is reported as the user typed it
OPTION_OF_FIELD = {
    "min_confidence": "--conf", "win_tile": "--win-tile", "win_tile_kind": "--win-tile",
    "face_up_kong": "--face-up-kong", "concealed_kong_kinds": "--kong-kind", "meld_types": "--meld-type",
    "reread_tiles": "--reread-tiles",
}  # fmt: skip


class PhotoOptionError(ValueError):
    """An option value the reader cannot take; the one-line message names the option."""


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
    from pydantic import ValidationError

    from vision.normalize import ReadOptions

    convention = win_tile if win_tile in WIN_TILE_CONVENTIONS else "set_apart"
    fields: dict[str, Any] = {
        "win_tile": convention,
        "win_tile_kind": None if win_tile == convention else win_tile,
        "face_up_kong": face_up_kong,
        "concealed_kong_kinds": kong_kind or [],
        "meld_types": indexed("--meld-type", meld_type or [], "TYPE", "0=kong_added"),
        "reread_tiles": reread_tiles,
    }
    if min_confidence is not None:
        fields["min_confidence"] = min_confidence
    try:
        return ReadOptions(**fields)
    except ValidationError as exc:
        raise PhotoOptionError("; ".join(_refused(error) for error in exc.errors())) from None


def meld_feeders(items: list[str] | None) -> dict[int, int]:
    """``--meld-from I=SEAT`` items -> {meld index: seat}."""
    seats = indexed("--meld-from", items or [], "SEAT", "0=2")
    for index, seat in seats.items():
        if not seat.isdigit() or not 0 <= int(seat) < N_SEATS:
            raise PhotoOptionError(f"--meld-from {index}={seat}: the seat is 0-{N_SEATS - 1}")
    return {index: int(seat) for index, seat in seats.items()}


def indexed(option: str, items: list[str], value: str, example: str) -> dict[int, str]:
    """``I=VALUE`` items -> {I: VALUE}; a meld named twice is refused rather than the last one silently winning."""
    out: dict[int, str] = {}
    for item in items:
        index, sep, text = item.partition("=")
        if not sep or not index.strip().isdigit() or not text.strip():
            raise PhotoOptionError(f"{option} {item!r}: write I={value}, e.g. {example} (melds count from 0)")
        if int(index) in out:
            raise PhotoOptionError(f"{option}: meld {int(index)} is named twice")
        out[int(index)] = text.strip()
    return out


def _refused(error: dict[str, Any]) -> str:
    option = OPTION_OF_FIELD.get(str(error["loc"][0]), str(error["loc"][0]))
    message = error["msg"].removeprefix("Value error, ")
    if error["loc"][0] == "win_tile_kind":  # a word that is no convention was read as a tile name
        message += f"; or give {', '.join(WIN_TILE_CONVENTIONS)}"
    value = error["input"]  # a list for --kong-kind, whose items are checked together
    return f"{option} {' '.join(map(str, value)) if isinstance(value, list) else value}: {message}"
