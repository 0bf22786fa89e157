"""What every score item has: golden.json's name, a Chinese and an English name."""

from __future__ import annotations

from typing import ClassVar

from scoring.result import ScoreItem


class Item:
    """A named score item; ``make`` turns a value and a reason into the result's ScoreItem."""

    name: ClassVar[str]
    zh: ClassVar[str]
    en: ClassVar[str]

    @classmethod
    def make(cls, value: int, reason: str) -> ScoreItem:
        return ScoreItem(name=cls.name, zh=cls.zh, en=cls.en, value=value, reason=reason)
