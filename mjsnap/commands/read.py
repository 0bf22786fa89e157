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
from mjsnap.commands import detector_options
from mjsnap.commands import photo_options as po


def read(
    image: Path = typer.Argument(..., help="the photo (JPEG, PNG, WebP, HEIC, AVIF, GIF, TIFF, BMP)", readable=False),
    as_json: bool = typer.Option(False, "--json", help="print the read hand as one JSON object"),
    model: Path = typer.Option(None, "--model", help="model directory (default: models/current)"),
    conf: float = detector_options.confidence(),
    win_tile: str = po.WIN_TILE,
    face_up_kong: str = po.FACE_UP_KONG,
    kong_kind: list[str] = po.KONG_KIND,
    meld_type: list[str] = po.MELD_TYPE,
    reread_tiles: int = po.REREAD_TILES,
) -> None:
    """Read the hand in a photo: concealed tiles, melds, winning tile, warnings."""
    from mjsnap.pipeline import read_photo
    from vision.detector import ModelNotFoundError, TileDetector
    from vision.imageio import ImageReadError

    try:
        options = po.read_options(win_tile=win_tile, face_up_kong=face_up_kong, kong_kind=kong_kind,
                                  meld_type=meld_type, reread_tiles=reread_tiles, min_confidence=conf)
    except po.PhotoOptionError as exc:
        _fail(str(exc))
    try:
        detector = TileDetector(model, conf=conf) if model is not None else TileDetector(conf=conf)
    except (ModelNotFoundError, ValueError) as exc:  # a missing model, or a damaged meta.json (as detect says)
        _fail(str(exc))
    try:
        _, hand, meta = read_photo(image, detector, options)
    except (ImageReadError, ModelNotFoundError) as exc:
        _fail(str(exc))
    if as_json:
        typer.echo(jsontext.dumps({"image": meta["image"], **hand.to_json()}))
        return
    typer.echo(f"{image}: {hand.summary()}")
    for warning in hand.warnings:
        typer.echo(f"  warning {warning.code}: {warning.message}")


def _fail(message: str) -> None:
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(2)


def register(app: typer.Typer) -> None:
    app.command("read")(read)
