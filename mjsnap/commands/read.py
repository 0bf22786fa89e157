"""`mjsnap read IMAGE`: detect the tiles of a photo and read the hand (concealed row, melds, winning tile).

    mjsnap read hand.jpg --json
    mjsnap read hand.jpg --kong-kind C --meld-type 1=kong_added --win-tile last

``--json`` prints {"image", "concealed" (without the winning tile, as golden.json's "hand"), "melds": [{"type",
"tiles"}], "win_tile", "tiles": [{"cls", "conf", "box", "group", ...}], "warnings": [{"code", "message", "tiles"}]}.
An unreadable photo or a missing model exits with code 2 and a message.
"""

from __future__ import annotations

from pathlib import Path

import typer

from mjsnap import jsontext


def read(
    image: Path = typer.Argument(..., help="the photo (JPEG, PNG, WebP, HEIC)", readable=False),
    as_json: bool = typer.Option(False, "--json", help="print the read hand as one JSON object"),
    model: Path = typer.Option(None, "--model", help="model directory (default: models/current)"),
    conf: float = typer.Option(0.25, "--conf", help="detector confidence threshold"),
    win_tile: str = typer.Option("set_apart", "--win-tile", help="set_apart | last | none, or a tile (5p) to name it"),
    face_up_kong: str = typer.Option("kong_exposed", "--face-up-kong", help="kong_exposed | kong_added"),
    kong_kind: list[str] = typer.Option(None, "--kong-kind", help="kind of a kong shown as four backs (repeat)"),
    meld_type: list[str] = typer.Option(None, "--meld-type", help="I=TYPE: switch meld I's type (repeat)"),
    reread_tiles: int = typer.Option(
        3, "--reread-tiles", help="a group that is no meld or a hand that does not win: re-read at most this many "
        "tiles as the classifier's next choices when that mends it (0: off)"),
) -> None:
    """Read the hand in a photo: concealed tiles, melds, winning tile, warnings."""
    from pydantic import ValidationError

    from mjsnap.pipeline import read_photo
    from vision.detector import ModelNotFoundError, TileDetector
    from vision.imageio import ImageReadError
    from vision.normalize import ReadOptions

    try:
        convention = win_tile if win_tile in ("set_apart", "last", "none") else "set_apart"
        options = ReadOptions(
            min_confidence=conf,
            win_tile=convention,
            win_tile_kind=None if win_tile == convention else win_tile,
            face_up_kong=face_up_kong,
            concealed_kong_kinds=kong_kind or [],
            meld_types=_parse_meld_types(meld_type or []),
            reread_tiles=reread_tiles,
        )
    except ValidationError as exc:
        _fail("; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors()))
    try:
        detector = TileDetector(model, conf=conf) if model is not None else TileDetector(conf=conf)
        _, hand, meta = read_photo(image, detector, options)
    except (ImageReadError, ModelNotFoundError) as exc:
        _fail(str(exc))
    if as_json:
        typer.echo(jsontext.dumps({"image": meta["image"], **hand.to_json()}))
        return
    data = hand.to_json()
    melds = " ".join(f"[{m['type']} {m['tiles']}]" for m in data["melds"])
    typer.echo(f"{image}: {data['concealed']} {melds} + {data['win_tile'] or '?'}")
    for warning in data["warnings"]:
        typer.echo(f"  warning {warning['code']}: {warning['message']}")


def _parse_meld_types(items: list[str]) -> dict[int, str]:
    out: dict[int, str] = {}
    for item in items:
        index, sep, kind = item.partition("=")
        if not sep or not index.strip().isdigit():
            _fail(f"--meld-type {item!r}: write I=TYPE, e.g. 0=kong_added")
        out[int(index)] = kind.strip()
    return out


def _fail(message: str) -> None:
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(2)


def register(app: typer.Typer) -> None:
    app.command("read")(read)
