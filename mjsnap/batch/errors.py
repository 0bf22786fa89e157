"""Errors that stop a batch run (as opposed to one photo's error, which becomes a record)."""

from __future__ import annotations


class BatchError(ValueError):
    """The run cannot start or go on as asked; the message says what to change."""
