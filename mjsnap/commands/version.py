"""`mjsnap --version`: the package's version and the shipped model's (models/current/meta.json), e.g. for a bug
report."""

from __future__ import annotations

import json
from importlib.metadata import version

import typer

from mjsnap.paths import MODELS_DIR


def version_line() -> str:
    meta = MODELS_DIR / "current" / "meta.json"
    if not meta.is_file():
        return f"mjsnap {version('mjsnap')} (no model in {meta.parent})"
    try:
        model = json.loads(meta.read_text(encoding="utf-8")).get("version", "without a version")
    except (OSError, ValueError, AttributeError):  # not readable, not JSON, or JSON but no object
        model = "unreadable"
    return f"mjsnap {version('mjsnap')}, model {model}"


def _print_version(show: bool) -> None:
    if show:
        typer.echo(version_line())
        raise typer.Exit()


def app_options(
    show_version: bool = typer.Option(False, "--version", is_eager=True, callback=_print_version,
                                      help="print mjsnap's version and the shipped model's, and exit"),
) -> None:
    # The app's own options; its help text is the Typer's.
    pass


def register(app: typer.Typer) -> None:
    app.callback()(app_options)
