"""mjsnap's scoring engine: tiles, hands, win shapes, the Shaanxi / Xi'an / Weinan rule sets and settlement.

Public API (loaded on first use, so ``import scoring.tiles`` stays light)::

    from scoring import Hand, RuleOptions, parse_hand, score, score_case, score_waits
    hand = parse_hand("123m456m789m234s5s", win="5s", context={"self_draw": True, "winner": 1, "missing_suit": "p"})
    result = score(hand, "weinan")          # ScoreResult: valid, shapes, items, deltas, fan, error, reason...

``score_waits`` is ``scoring.scorer.waits`` (the name ``scoring.waits`` is the wait-list module).
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

_EXPORTS = {
    "Hand": "scoring.hand",
    "Meld": "scoring.hand",
    "MeldType": "scoring.hand",
    "Context": "scoring.hand",
    "HandError": "scoring.hand",
    "parse_tiles": "scoring.tiles",
    "format_compact": "scoring.tiles",
    "RuleOptions": "scoring.options",
    "OptionError": "scoring.options",
    "ScoreItem": "scoring.result",
    "ScoreResult": "scoring.result",
    "Payment": "scoring.result",
    "RULESETS": "scoring.scorer",
    "score": "scoring.scorer",
    "score_case": "scoring.scorer",
    "score_waits": "scoring.scorer",
    "parse_hand": "scoring.scorer",
    "kong_deltas": "scoring.scorer",
    "merge_same_discard_wins": "scoring.settlement",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    if name == "score_waits":
        return import_module("scoring.scorer").waits
    if name in _EXPORTS:
        return getattr(import_module(_EXPORTS[name]), name)
    raise AttributeError(f"module 'scoring' has no attribute {name!r}")
