"""Class names of other tools mapped onto mjsnap's 36 classes, by NAME (never by index).

Every labelling tool numbers classes its own way (Roboflow sorts them alphabetically, Label Studio keeps the order
of its config), so an index means nothing outside its own export. A name is normalised (case, spaces, ``-``/``_``)
and looked up in an alias table of common spellings: ``1m``, ``m1``, ``1man``, ``man1``, ``dot5``, ``5-bamboo``,
``wind-east``, ``red-dragon``, ``flower-plum``, Chinese ``一万``, riichi ``0m`` (red five) and more. Names that match
nothing are returned as unknown so the caller can report them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from scoring.tiles import CLASS_NAMES, FLOWER

_SUIT_WORDS = {
    "m": ("m", "man", "wan", "manzu", "character", "characters", "char", "chars", "crak", "craks", "crack", "cracks",
          "sc", "w", "萬", "万"),
    "p": ("p", "pin", "pinzu", "dot", "dots", "circle", "circles", "coin", "coins", "ball", "balls", "tong", "sd",
          "筒", "饼", "餅"),
    "s": ("s", "sou", "so", "souzu", "bamboo", "bamboos", "bam", "bams", "stick", "sticks", "tiao", "sb", "b",
          "条", "條", "索"),
}
_HONOUR_WORDS = {
    "E": ("e", "east", "windeast", "eastwind", "we", "hwe", "ton", "dong", "东", "東", "东风", "東風"),
    "S": ("s", "south", "windsouth", "southwind", "ws", "hws", "nan", "南", "南风", "南風"),
    "W": ("w", "west", "windwest", "westwind", "ww", "hww", "sha", "xi", "西", "西风", "西風"),
    "N": ("n", "north", "windnorth", "northwind", "wn", "hwn", "pei", "bei", "北", "北风", "北風"),
    "C": ("c", "red", "reddragon", "dragonred", "dr", "hdr", "chun", "zhong", "中"),
    "F": ("f", "green", "greendragon", "dragongreen", "dg", "hdg", "hatsu", "fa", "发", "發"),
    "P": ("p", "white", "whitedragon", "dragonwhite", "dw", "hdw", "haku", "bai", "blank", "白"),
    "back": ("back", "backs", "facedown", "tileback", "hidden", "背"),
    "flower": ("flower", "flowers", "season", "seasons", "bonus", "花"),
}
_FLOWER_PREFIXES = ("flower", "season")
_FLOWER_WORDS = ("plum", "orchid", "chrysanthemum", "spring", "summer", "autumn", "fall", "winter", "梅", "兰", "蘭",
                 "菊", "竹", "春", "夏", "秋", "冬")
_CHINESE_DIGITS = "一二三四五六七八九"


def _normalise(name: str) -> str:
    return re.sub(r"[\s_\-.]+", "", name.strip().lower())


def _build_aliases() -> dict[str, int]:
    aliases: dict[str, int] = {}
    for suit, words in _SUIT_WORDS.items():
        for rank in range(1, 10):
            cls = CLASS_NAMES.index(f"{rank}{suit}")
            for word in words:
                for spelling in (f"{rank}{word}", f"{word}{rank}", f"{_CHINESE_DIGITS[rank - 1]}{word}"):
                    aliases[_normalise(spelling)] = cls
        aliases[f"0{suit}"] = CLASS_NAMES.index(f"5{suit}")  # riichi notation: 0 is the red five
    for rank, name in enumerate("ESWNCFP", start=1):
        aliases[f"{rank}z"] = CLASS_NAMES.index(name)  # mjsnap's z order (scoring.tiles): E S W N C F P
    for name, words in _HONOUR_WORDS.items():
        for word in words:
            aliases[_normalise(word)] = CLASS_NAMES.index(name)
    for word in _FLOWER_WORDS:
        aliases[_normalise(word)] = FLOWER
    return aliases


_ALIASES = _build_aliases()


def class_id(name: str) -> int | None:
    """mjsnap's class id for a tool's class name, or None when the name is not a tile mjsnap knows."""
    if name in CLASS_NAMES:  # exact first: 'S' is South, 'P' the white dragon, '1s' one bamboo
        return CLASS_NAMES.index(name)
    key = _normalise(name)
    if key in _ALIASES:
        return _ALIASES[key]
    if key.startswith(_FLOWER_PREFIXES):  # flower-plum, season3, flower_4 ...
        return FLOWER
    return None


def map_names(names: Iterable[str]) -> tuple[dict[str, int], list[str]]:
    """(name -> class id for every known name, the unknown names in order)."""
    known, unknown = {}, []
    for name in names:
        cls = class_id(name)
        if cls is None:
            if name not in unknown:
                unknown.append(name)
        else:
            known[name] = cls
    return known, unknown


def classes_txt_text() -> str:
    """datasets/classes.txt: the 36 class names, one a line, in class-id order."""
    return "".join(f"{name}\n" for name in CLASS_NAMES)

