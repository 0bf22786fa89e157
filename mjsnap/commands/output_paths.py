"""Output paths checked before a command starts work: a path that cannot be written is one line and exit 2, and
nothing is half-written (mjsnap.paths says what is wrong with a path)."""

from __future__ import annotations

from pathlib import Path

import typer

from mjsnap.paths import output_dir_problem, output_file_problem


def require_output_file(option: str, path: Path | None) -> None:
    """Exit 2 when ``path``, given as ``option``, cannot be written as a file; None is an output not asked for."""
    _refuse(option, None if path is None else output_file_problem(path))


def require_output_files(outputs: dict[str, Path]) -> None:
    """Every output of one command, by the option naming it: each can be written, and no two are the same file
    (the later would replace the earlier, the results perhaps)."""
    for option, path in outputs.items():
        require_output_file(option, path)
    named_first: dict[Path, str] = {}
    for option, path in outputs.items():
        earlier = named_first.setdefault(path.resolve(), option)
        _refuse(option, None if earlier == option else f"{path} is already {earlier}; name another file")


def require_output_dir(option: str, path: Path) -> None:
    """Exit 2 when ``path``, given as ``option``, cannot be used or made as a folder."""
    _refuse(option, output_dir_problem(path))


def _refuse(option: str, problem: str | None) -> None:
    if problem is not None:
        typer.echo(f"error: {option}: {problem}", err=True)
        raise typer.Exit(2)
