"""The game ledger: hands played in one sitting, running totals, who deals next, CSV export and import.

Dealer rotation follows seeds 000 and 001 (庄家轮换): the dealer stays after a dealer win (庄家胡) or a drawn hand
(荒庄/黄庄); otherwise the next seat in play order (the dealer's 下家) deals. Bets (炮子 / 注) default to the last
hand's (``默认上回的下炮子的值``). Seats are 0..3 in play order, as everywhere in mjsnap.

Several winners on one discard (一炮多响) exist only in Weinan (seed 004): the hand's ``deltas`` are the winners'
settlements added up against the discarder (``scoring.settlement.merge_same_discard_wins``, [A14] for three), and
the discarder deals next (``下局点胡的玩家坐庄``). Shaanxi and Xi'an give a contested discard to one winner only
(截和: the nearest seat after the discarder, seeds 000 and 001), so the ledger refuses a second winner there.
In the CSV the ``winner`` column holds the winners' seats separated by spaces (empty for a drawn hand).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

N_SEATS = 4
MULTI_WIN_RULESETS = ("weinan",)  # 一炮多响: seed 004; seeds 000/001 let only the nearest seat win (截和)
DEFAULT_PLAYERS = ("东", "南", "西", "北")
CSV_COLUMNS = (
    ["hand", "ruleset", "dealer", "winner", "self_draw", "discarder"]
    + [f"bet_{s}" for s in range(N_SEATS)]
    + [f"delta_{s}" for s in range(N_SEATS)]
    + [f"player_{s}" for s in range(N_SEATS)]
    + ["tiles", "note"]
)
FIRST_ROW = 2  # the CSV line of the first hand, after the header


class LedgerError(ValueError):
    """A hand that cannot go into the ledger, or a CSV that is not a ledger. ``code`` names the problem in words
    of either language (``mjsnap.i18n_catalogue.CODES``), ``line`` the CSV line; the message is English and
    names the very values."""

    def __init__(self, message: str, code: str, line: int | None = None):
        super().__init__(f"line {line}: {message}" if line is not None else message)
        self.detail, self.code, self.line = message, code, line

    def at_line(self, line: int) -> LedgerError:
        return LedgerError(self.detail, self.code, line)


def next_dealer(dealer: int, winners: Sequence[int], discarder: int | None = None) -> int:
    """Who deals the next hand: the same dealer after a dealer win or a draw (no winners), the discarder after
    several winners on one discard (seed 004: 下局点胡的玩家坐庄), else the dealer's next seat."""
    if len(winners) > 1:
        if discarder is None:
            raise ValueError("several winners need the discarder: they all won on one discard")
        return discarder
    if not winners or dealer in winners:
        return dealer
    return (dealer + 1) % N_SEATS


class LedgerHand(BaseModel):
    """One finished hand. No ``winners`` is a drawn hand (荒庄); its deltas can still hold kong payments.
    Two or three winners won on the same discard (一炮多响); ``deltas`` are their settlements added up."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    number: int = Field(ge=1)
    ruleset: str
    dealer: int = Field(ge=0, le=3)
    winners: tuple[int, ...] = ()
    self_draw: bool = False
    discarder: int | None = Field(None, ge=0, le=3)
    bets: tuple[int, int, int, int] = (0, 0, 0, 0)
    deltas: tuple[int, int, int, int] = (0, 0, 0, 0)
    tiles: str = ""
    note: str = ""

    @field_validator("bets")
    @classmethod
    def _bets_not_negative(cls, bets: tuple[int, ...]) -> tuple[int, ...]:
        if any(b < 0 for b in bets):
            raise LedgerError(f"bets are whole numbers from 0, got {list(bets)}", "bad_bets")
        return bets

    @field_validator("winners")
    @classmethod
    def _winner_seats(cls, winners: tuple[int, ...]) -> tuple[int, ...]:
        if any(not 0 <= w < N_SEATS for w in winners):
            raise LedgerError(f"winner seats are 0-3, got {list(winners)}", "bad_seat")
        if len(set(winners)) != len(winners):
            raise LedgerError(f"a seat can win a hand once, got {list(winners)}", "winner_twice")
        return winners

    @model_validator(mode="after")
    def _consistent(self) -> LedgerHand:
        if sum(self.deltas) != 0:
            raise LedgerError(
                f"the points of a hand must sum to 0, got {list(self.deltas)} (sum {sum(self.deltas)})",
                "points_not_balanced",
            )
        if self.drawn and (self.self_draw or self.discarder is not None):
            raise LedgerError("a drawn hand (no winner) has no self-draw and no discarder", "drawn_hand_with_win")
        if self.discarder is not None and self.discarder in self.winners:
            raise LedgerError("the discarder cannot be the winner", "bad_seat")
        if len(self.winners) > 1:
            if self.ruleset not in MULTI_WIN_RULESETS:
                raise LedgerError(
                    f"several winners on one discard (一炮多响) are a Weinan rule; in {self.ruleset} only the seat "
                    "nearest the discarder wins (截和)",
                    "multi_win_not_weinan",
                )
            if self.self_draw or self.discarder is None:
                raise LedgerError(
                    "several winners must all have won on one discard: name the discarder", "multi_win_not_on_discard"
                )
        return self

    @property
    def drawn(self) -> bool:
        return not self.winners

    @property
    def next_dealer(self) -> int:
        return next_dealer(self.dealer, self.winners, self.discarder)


class Ledger(BaseModel):
    """Players, the first dealer, and the hands in order. Methods return a new ledger."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    players: tuple[str, str, str, str] = DEFAULT_PLAYERS
    first_dealer: int = Field(0, ge=0, le=3)
    hands: tuple[LedgerHand, ...] = ()

    @field_validator("players")
    @classmethod
    def _names(cls, players: tuple[str, ...]) -> tuple[str, ...]:
        cleaned = tuple(p.strip() for p in players)
        if any(not p for p in cleaned):
            raise LedgerError("every seat needs a player name", "player_name_missing")
        if len(set(cleaned)) != len(cleaned):
            raise LedgerError(f"player names must differ, got {list(cleaned)}", "player_names_same")
        return cleaned

    def totals(self) -> list[int]:
        """Running total per seat over all hands."""
        return [sum(h.deltas[s] for h in self.hands) for s in range(N_SEATS)]

    def running(self) -> list[list[int]]:
        """Totals after each hand (one row per hand)."""
        rows, acc = [], [0] * N_SEATS
        for hand in self.hands:
            acc = [a + d for a, d in zip(acc, hand.deltas)]
            rows.append(list(acc))
        return rows

    def dealer(self) -> int:
        """The dealer of the next hand."""
        if not self.hands:
            return self.first_dealer
        return self.hands[-1].next_dealer

    def next_bets(self) -> tuple[int, int, int, int]:
        """Bets for the next hand: the last hand's, or none."""
        return self.hands[-1].bets if self.hands else (0, 0, 0, 0)

    def record(
        self,
        *,
        ruleset: str,
        winners: Sequence[int],
        deltas: Sequence[int],
        bets: Sequence[int] | None = None,
        self_draw: bool = False,
        discarder: int | None = None,
        dealer: int | None = None,
        tiles: str = "",
        note: str = "",
    ) -> Ledger:
        """A ledger with one more hand; dealer and bets default to the rotation and the last hand's bets.
        ``winners``: one seat, two or three on one discard (Weinan 一炮多响), none for a drawn hand."""
        try:
            hand = LedgerHand(
                number=len(self.hands) + 1,
                ruleset=ruleset,
                dealer=self.dealer() if dealer is None else dealer,
                winners=tuple(winners),
                self_draw=self_draw,
                discarder=discarder,
                bets=tuple(self.next_bets() if bets is None else bets),
                deltas=tuple(deltas),
                tiles=tiles,
                note=note,
            )
        except ValidationError as exc:
            raise _refusal(exc) from None
        return self.model_copy(update={"hands": self.hands + (hand,)})

    def record_draw(self, *, ruleset: str, deltas: Sequence[int] = (0, 0, 0, 0), note: str = "") -> Ledger:
        """A drawn hand (荒庄): the dealer stays; ``deltas`` carry kong payments where the rules keep them."""
        return self.record(ruleset=ruleset, winners=(), deltas=deltas, note=note)

    def undo(self) -> Ledger:
        """The ledger without its last hand."""
        return self.model_copy(update={"hands": self.hands[:-1]})

    def rename(self, players: Sequence[str]) -> Ledger:
        try:
            return Ledger(players=tuple(players), first_dealer=self.first_dealer, hands=self.hands)
        except ValidationError as exc:
            raise _refusal(exc) from None

    def to_csv(self) -> str:
        """One row per hand (seats 0..3, player names repeated on every row so each row stands alone)."""
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(CSV_COLUMNS)
        for h in self.hands:
            writer.writerow(
                [h.number, h.ruleset, h.dealer, " ".join(map(str, h.winners)), int(h.self_draw), _blank(h.discarder)]
                + list(h.bets)
                + list(h.deltas)
                + list(self.players)
                + [h.tiles, h.note]
            )
        return out.getvalue()

    @classmethod
    def from_csv(cls, text: str) -> Ledger:
        """Read ``to_csv`` output back; LedgerError names the line and the problem."""
        reader = csv.DictReader(io.StringIO(text.lstrip("\ufeff")))
        missing = [c for c in CSV_COLUMNS if c not in (reader.fieldnames or [])]
        if missing:
            raise LedgerError(f"not a ledger CSV: missing column(s) {', '.join(missing)}", "not_a_ledger_csv")
        hands: list[LedgerHand] = []
        players: tuple[str, ...] | None = None
        for line, row in enumerate(reader, start=FIRST_ROW):
            try:
                row_players = tuple(row[f"player_{s}"] for s in range(N_SEATS))
                if players is not None and row_players != players:
                    raise LedgerError(
                        f"player names {list(row_players)} differ from line 2's {list(players)}", "players_differ"
                    )
                players = row_players
                hand = LedgerHand(
                    number=_int(row["hand"], "hand"),
                    ruleset=row["ruleset"],
                    dealer=_int(row["dealer"], "dealer"),
                    winners=tuple(_int(w, "winner") for w in (row["winner"] or "").split()),
                    self_draw=_flag(row["self_draw"]),
                    discarder=_optional_int(row["discarder"], "discarder"),
                    bets=tuple(_int(row[f"bet_{s}"], f"bet_{s}") for s in range(N_SEATS)),
                    deltas=tuple(_int(row[f"delta_{s}"], f"delta_{s}") for s in range(N_SEATS)),
                    tiles=row["tiles"] or "",
                    note=row["note"] or "",
                )
            except ValidationError as exc:
                raise _refusal(exc, line) from None
            except LedgerError as exc:
                raise exc.at_line(line) from None
            if hand.number != len(hands) + 1:
                raise LedgerError(f"hand number {hand.number}, expected {len(hands) + 1}", "hand_out_of_order", line)
            hands.append(hand)
        try:
            first = hands[0].dealer if hands else 0
            return cls(players=players or DEFAULT_PLAYERS, first_dealer=first, hands=tuple(hands))
        except ValidationError as exc:  # the player names, the same on every row: name the first
            raise _refusal(exc, FIRST_ROW) from None


def _blank(value: int | None) -> str | int:
    return "" if value is None else value


def _int(text: str | None, column: str) -> int:
    try:
        return int((text or "").strip())
    except ValueError:
        raise LedgerError(f"{column} {text!r} is not a whole number", "not_a_whole_number") from None


def _optional_int(text: str | None, column: str) -> int | None:
    return None if not (text or "").strip() else _int(text, column)


def _flag(text: str | None) -> bool:
    value = (text or "").strip().lower()
    if value in ("1", "true", "yes"):
        return True
    if value in ("0", "false", "no", ""):
        return False
    raise LedgerError(f"self_draw {text!r} is not 0/1", "bad_self_draw")


def _refusal(exc: ValidationError, line: int | None = None) -> LedgerError:
    """Pydantic's problems as one LedgerError: the code of the first refusal raised here, else a value that does
    not fit its field (a seat out of 0-3, four points per hand...)."""
    ours = [e["ctx"]["error"] for e in exc.errors() if isinstance(e.get("ctx", {}).get("error"), LedgerError)]
    if ours:
        return LedgerError(_problems(exc), ours[0].code, line)
    return LedgerError(_problems(exc), "bad_ledger_value", line)


def _problems(exc: ValidationError) -> str:
    return "; ".join(
        (f"{'.'.join(str(p) for p in e['loc'])}: " if e["loc"] else "") + e["msg"].removeprefix("Value error, ")
        for e in exc.errors(include_url=False)
    )
