"""What scoring a hand returns: plain data, the same in Python, the CLI's JSON and the app.

``items`` follow golden.json's meaning per rule set (see ../shared/rules/golden.json ``items_semantics``):
Shaanxi = points the winner gets per component (hu, paozi, kong); Xi'an = the successive per-payer win base
(discard/self_draw -> 夹张/单调 -> ×2/×3); Weinan = 番 addends. ``payments`` is the full ledger behind ``deltas``
(every component, payer and amount), so a breakdown never has to be re-derived from strings.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field


class ScoreItem(BaseModel):
    """One named score item. ``name`` is golden.json's item name; ``zh``/``en`` are for people."""

    name: str
    zh: str
    en: str
    value: int
    reason: str


class Payment(BaseModel):
    """``payer`` gives ``amount`` points to ``payee`` for ``component`` (hu, paozi, bets, kong, fan...)."""

    component: str
    payer: int
    payee: int
    amount: int


class ScoreResult(BaseModel):
    # the case's id as given: golden.json writes text, but JSON input may carry a number (or any value), and the
    # result echoes it unchanged so that lines can be matched to their cases
    id: Any = None
    ruleset: str
    valid: bool
    shapes: list[str] = Field(default_factory=list, description="every win shape that holds (golden names)")
    scored_shape: str | None = Field(None, description="the shape the score was computed on")
    items: list[ScoreItem] = Field(default_factory=list)
    deltas: list[int] | None = Field(None, description="net points per seat 0..3, summing to 0; None when invalid")
    error: str | None = Field(None, description="a human message when the hand does not score")
    reason: str | None = Field(None, description="machine code for the error (golden.json's 'reason')")
    fan: int | None = Field(None, description="Weinan: total 番 of a valid win")
    fan_if_scored: int | None = Field(None, description="Weinan: the 番 an ineligible win would have had")
    per_payer_win_base: int | None = Field(None, description="Xi'an: final win base each payer pays (×B)")
    kong_points_to_winner: int | None = Field(None, description="points the winner gets for own kongs")
    decisions: list[str] = Field(default_factory=list, description="[A#] switches that decided something here")
    warnings: list[str] = Field(default_factory=list, description="accepted, but worth a look (e.g. chow in 108)")
    warning_codes: list[str] = Field(default_factory=list, description="a stable code per entry of warnings")
    payments: list[Payment] = Field(default_factory=list, description="the ledger behind deltas")

    def to_json(self) -> dict[str, Any]:
        """The public JSON object (docs/score-json.md).

        ``items`` are written as golden.json writes them, ``[[name, value], ...]``, so results compare directly
        with its cases; ``item_details`` carries the same items with zh, en and reason. Unset numbers are left out.
        """
        data = self.model_dump()
        data["item_details"] = data["items"]
        data["items"] = self.item_pairs()
        for key in ("fan", "fan_if_scored", "per_payer_win_base", "kong_points_to_winner", "scored_shape"):
            if data[key] is None:
                del data[key]
        return data

    def item_pairs(self) -> list[list[Any]]:
        """Items as golden.json writes them: ``[[name, value], ...]``."""
        return [[item.name, item.value] for item in self.items]
