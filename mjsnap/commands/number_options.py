"""The checks typer's ranges leave out, as the callback of every float option: typer compares a value with the
option's min and max, and NaN compares false with everything, so `--conf nan` passed a 0-1 range (and `inf` any
range without a max) and reached the command, which crashed on it or measured nonsense with it."""

from __future__ import annotations

import math

import typer


def finite(value: float | None) -> float | None:
    if value is not None and not math.isfinite(value):
        raise typer.BadParameter(f"{value} is not a finite number")
    return value


def positive(value: float | None) -> float | None:
    """A learning rate or a time budget: above 0 (0 trains nothing; less means nothing)."""
    if finite(value) is not None and value <= 0:
        raise typer.BadParameter(f"{value} is not above 0")
    return value
