"""Xi'an 西安麻将 items. The win items form a chain of per-payer bases (golden.json items_semantics):
discard 1 / self_draw 2 -> 夹张/单调 (+1) -> ×2 杠后开花; 天胡 replaces the chain. Bets and kongs are settled
beside the chain and appear in the payments ledger, not in ``items``."""
