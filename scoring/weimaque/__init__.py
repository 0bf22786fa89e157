"""安乡偎麻雀 (seed 003): 息 calculator for a finished hand of the 80 paper cards.

    from scoring.weimaque import parse_hand, score, WeimaqueOptions, WeimaqueContext
    result = score(parse_hand("碰 柒柒柒, 煨 3 3 3, 砍 十十十, 吃 7B 8B 9B, 吃 一二三, 吃 四五六, 雀 捌捌*"))
    result.total_xi, result.items, result.decisions

Rules as implemented, the switches and what the seed leaves open: docs/weimaque.md.
"""

from scoring.weimaque.cards import ALL_CARDS, Card
from scoring.weimaque.hand import Group, SetType, WeimaqueContext, WeimaqueHand, WeimaqueInputError, parse_hand
from scoring.weimaque.options import WeimaqueOptionError, WeimaqueOptions
from scoring.weimaque.result import WeimaqueResult, XiItem
from scoring.weimaque.scorer import score

__all__ = [
    "ALL_CARDS", "Card", "Group", "SetType", "WeimaqueContext", "WeimaqueHand", "WeimaqueInputError",
    "WeimaqueOptionError", "WeimaqueOptions", "WeimaqueResult", "XiItem", "parse_hand", "score",
]
