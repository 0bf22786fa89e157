"""陕西麻将 (seed 000, SPEC §2): flat 底分 for every shape, 庄家翻倍 on the hu score, 炮子, kongs.

The 136-tile variant (default) wins with plain hands and the four special shapes; the 108-tile variant has no
honours and counts only plain hands ([A1]/[A2]); an exposed chow there is accepted but flagged.
"""

from __future__ import annotations

from scoring.options import RuleOptions
from scoring.result import ScoreResult
from scoring.rules.base import NotAllowed, RuleSet, Situation, has_chow_meld, reject_honors
from scoring.rules.items.shaanxi.hu import HuScore, hu_payers
from scoring.rules.items.shaanxi.kong import KongScore
from scoring.rules.items.shaanxi.paozi import PaoziScore
from scoring.settlement import Ledger
from scoring.shapes import ALL_SHAPES, PLAIN

PLAIN_ONLY = frozenset({PLAIN})


class Shaanxi(RuleSet):
    name = "shaanxi"
    zh = "陕西麻将"

    def allowed_shapes(self, options: RuleOptions) -> frozenset[str]:
        return PLAIN_ONLY if options.shaanxi.variant == 108 else ALL_SHAPES

    def check_tiles(self, sit: Situation) -> None:
        if sit.options.shaanxi.variant != 108:
            return
        sit.decide("A1 shaanxi.variant=108")
        reject_honors(sit.hand, "the 108-tile Shaanxi variant")
        if has_chow_meld(sit.hand):
            sit.warn("chow_in_108", "exposed chow in the 108-tile variant, where 吃 is not allowed (accepted, [A1])")
        special = [s for s in sit.report.shapes if s != PLAIN]
        if special and PLAIN not in sit.report.shapes:
            sit.decide("A2 七对/十三幺/全不靠/组合龙 不算 in the 108 variant")
            raise NotAllowed(
                "shape_not_allowed",
                f"{', '.join(special)} does not count as a win in the 108-tile variant (七对、十三幺、全不靠和组合龙不算)",
            )

    def settle(self, sit: Situation, ledger: Ledger) -> ScoreResult:
        allowed = self.allowed_shapes(sit.options)
        scored = next(s for s in sit.report.shapes if s in allowed)
        if scored != PLAIN:
            sit.decide("A2 special shapes win in the 136-tile variant, at the flat 底分")
        items = [HuScore().settle(sit, ledger, hu_payers(sit)), PaoziScore().settle(sit, ledger)]
        kong = KongScore().settle(sit, ledger)
        if kong is not None:
            items.append(kong)
        return ScoreResult(
            ruleset=self.name,
            valid=True,
            scored_shape=scored,
            items=items,
            kong_points_to_winner=kong.value if kong else None,
        )
