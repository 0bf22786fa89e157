"""Scored wins on their way into the ledger: one win, or two or three wins on the same discard (Weinan 一炮多响).

The app keeps the wins of a 一炮多响 here until the last winner's hand is scored; ``record_wins`` then puts them
into the ledger as one hand whose deltas are the winners' settlements added up against the discarder.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from mjsnap.app.ledger import MULTI_WIN_RULESETS, Ledger, LedgerError
from scoring.hand import Context
from scoring.options import RuleOptions
from scoring.result import ScoreResult
from scoring.settlement import merge_same_discard_wins

MAX_WINNERS = 3  # every seat but the discarder's


@dataclass(frozen=True)
class ScoredWin:
    ruleset: str
    options: RuleOptions
    context: Context
    result: ScoreResult
    summary: str  # the hand in compact notation, kept in the ledger's ``tiles``

    @property
    def can_share_discard(self) -> bool:
        """Another player may have won on the same discard (一炮多响): a Weinan win on a discard."""
        return self.ruleset in MULTI_WIN_RULESETS and not self.context.is_self_draw


def combined_deltas(wins: Sequence[ScoredWin]) -> tuple[int, ...]:
    """What the wins settle as one hand: one win's own deltas, or the wins of one discard added up against the
    discarder ([A14] for three); LedgerError says why they cannot go together."""
    if not wins:
        raise LedgerError("no win to record", "no_win_to_record")
    if len(wins) == 1:
        return tuple(wins[0].result.deltas)
    if not all(w.can_share_discard for w in wins):
        raise LedgerError("several winners on one discard (一炮多响) are Weinan wins on a discard", "cannot_share_discard")
    if len({(w.ruleset, w.context.discarder, w.context.dealer) for w in wins}) != 1:
        raise LedgerError(
            "the winners of one discard share the rule set, the discarder and the dealer", "multi_win_mismatch"
        )
    if len(wins) > MAX_WINNERS:
        raise LedgerError(f"at most {MAX_WINNERS} players can win on one discard", "too_many_winners")
    try:
        return tuple(merge_same_discard_wins([w.result for w in wins], wins[0].options))
    except ValueError as exc:
        raise LedgerError(str(exc), "multi_win_not_valid") from None


def record_wins(ledger: Ledger, wins: Sequence[ScoredWin]) -> Ledger:
    """The ledger with one more hand won by ``wins`` (all on one discard when there are several)."""
    deltas = combined_deltas(wins)
    first = wins[0]
    return ledger.record(
        ruleset=first.ruleset,
        winners=[w.context.winner for w in wins],
        dealer=first.context.dealer,
        self_draw=first.context.is_self_draw,
        discarder=None if first.context.is_self_draw else first.context.discarder,
        bets=first.context.bets,
        deltas=deltas,
        tiles=" | ".join(w.summary for w in wins),
    )
