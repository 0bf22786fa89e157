"""What every 息 item has: a name (the seed's), Chinese and English names, and how it counts."""

from __future__ import annotations

from typing import ClassVar, Literal

from scoring.weimaque.result import XiItem


class Xi:
    name: ClassVar[str]
    en: ClassVar[str]
    kind: ClassVar[Literal["hard", "add", "multiply", "house"]]

    @classmethod
    def make(cls, value: int, reason: str) -> XiItem:
        return XiItem(name=cls.name, zh=cls.name, en=cls.en, value=value, reason=reason, kind=cls.kind)


class ColouredXi(Xi):
    """A hard item worth ``black`` or ``red`` 息 by the colour of its card."""

    black: ClassVar[int]
    red: ClassVar[int]

    @classmethod
    def value_for(cls, red: bool) -> int:
        return cls.red if red else cls.black
