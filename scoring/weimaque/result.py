"""What scoring a 偎麻雀 hand returns: the same JSON contract as ``scoring.result.ScoreResult`` plus the 息 totals.

``items`` are 息 items: ``kind`` says how each one counts — ``hard`` (硬息, summed), ``add`` (名堂息 added),
``multiply`` (名堂息 that make 总息 N × 硬息; ``value`` is N) and ``house`` (a value the seed does not give, set
by an option). The seed gives no rule that turns 息 into payments between players, so ``deltas`` is always None,
``payments`` empty, and ``settlement`` says so.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from scoring.result import ScoreItem, ScoreResult

NO_SETTLEMENT = "the seed gives no rule for paying 息 between players: no settlement is computed"
SHAPE = "six_ju_and_pair"


class XiItem(ScoreItem):
    kind: Literal["hard", "add", "multiply", "house"]


class WeimaqueResult(ScoreResult):
    ruleset: str = "weimaque"
    items: list[XiItem] = Field(default_factory=list)
    hand: str | None = Field(None, description="the hand in canonical text form")
    hard_xi: int | None = Field(None, description="硬息: the sum of the hard items")
    added_xi: int | None = Field(None, description="the additive 名堂息 (house items included)")
    multiplier: int | None = Field(None, description="the 名堂 multiplier: 对子胡 6, 乌对 8, 乌胡 4, 点胡 3, else 1")
    total_xi: int | None = Field(None, description="总息 of a valid win")
    settlement: str = NO_SETTLEMENT

    def to_json(self) -> dict[str, Any]:
        data = super().to_json()
        for key in ("hand", "hard_xi", "added_xi", "multiplier", "total_xi"):
            if data[key] is None:
                del data[key]
        return data
