"""The hand's context as command-line options, shared by `mjsnap score` and `mjsnap batch`: one name, one help
text and one parser per option, so both commands read a context the same way (golden.json's context fields)."""

from __future__ import annotations

from typing import Any

import typer

from scoring.hand import Context, HandError

SEAT = {"min": 0, "max": 3}
WINNER = typer.Option(0, "--winner", **SEAT, help="winner's seat (0-3)")
DEALER = typer.Option(0, "--dealer", **SEAT, help="dealer's seat (0-3)")
DISCARDER = typer.Option(None, "--discarder", **SEAT, help="seat that discarded the winning tile (or was robbed)")
SELF_DRAW = typer.Option(None, "--self-draw/--no-self-draw",
                         help="won on an own draw (default: when no --discarder is given)")
BETS = typer.Option(None, "--bets", help="bets per seat, e.g. 1,0,2,0 (Shaanxi 炮子 / Xi'an 注)")
KONG_REPLACEMENT = typer.Option(False, "--kong-replacement", help="won on a kong replacement draw (杠上花)")
LAST_TILE = typer.Option(False, "--last-tile", help="won on the last tile (海底)")
HEAVENLY = typer.Option(False, "--heavenly", help="天胡")
EARTHLY = typer.Option(False, "--earthly", help="地胡")
ROBBING_KONG = typer.Option(False, "--robbing-kong", help="抢杠 (--discarder = the player robbed)")
AFTER_KONG_DISCARD = typer.Option(False, "--after-kong-discard", help="Weinan 杠后点胡")
MISSING_SUIT = typer.Option(None, "--missing-suit", help="Weinan 定缺 suit: m, p or s")
RULE_OPTION = typer.Option([], "--option", "-o", help="rule switch KEY=VALUE (repeatable); --list-options lists them")


def _print_rule_options(value: bool) -> None:
    if not value:
        return
    from rich.cells import cell_len  # a Chinese character fills two columns

    from scoring.options import options_table

    rows = options_table()
    widths = [max(cell_len(row[column]) for row in rows) for column in range(3)]
    for row in rows:
        typer.echo("".join(cell + " " * (width + 2 - cell_len(cell)) for cell, width in zip(row, widths)) + row[3])
    raise typer.Exit()


LIST_RULE_OPTIONS = typer.Option(False, "--list-options", is_eager=True, callback=_print_rule_options,
                                 help="print every --option key, its default (SPEC.md's reading), values, and exit")


def parse_bets(text: str | None) -> list[int] | None:
    """"1,0,2,0" -> [1, 0, 2, 0]; None stays None (the context's default, or a batch sidecar's, applies)."""
    if text is None:
        return None
    parts = [part.strip() for part in text.split(",")]
    if len(parts) != 4 or not all(part.isdecimal() for part in parts):
        raise HandError(f"--bets {text!r}: give four whole numbers, one per seat", "bad_bets")
    return [int(part) for part in parts]


def rule_options(pairs: list[str]):
    """The checked RuleOptions of the --option pairs (a bad key or value is a usage error, before any work)."""
    from scoring.options import OptionError, RuleOptions

    try:
        return RuleOptions.from_pairs(pairs)
    except OptionError as exc:  # one line, as the commands' other usage errors: typer's box would wrap the message
        typer.echo(f"error: --option: {exc}", err=True)
        raise typer.Exit(2) from None


def context(
    *,
    winner: int,
    dealer: int,
    discarder: int | None,
    self_draw: bool | None,
    bets: str | None,
    kong_replacement: bool,
    last_tile: bool,
    heavenly: bool,
    earthly: bool,
    robbing_kong: bool,
    after_kong_discard: bool,
    missing_suit: str | None,
) -> dict[str, Any]:
    """The context dict (scoring.hand.Context.from_dict's fields); unset self_draw and bets are left out.

    Raises HandError (its code as docs/score-json.md lists them) when the options contradict each other, before any
    hand is read: a hand or photo cannot make such a context right."""
    out: dict[str, Any] = {
        "winner": winner, "dealer": dealer, "discarder": discarder, "kong_replacement": kong_replacement,
        "last_tile": last_tile, "heavenly": heavenly, "earthly": earthly, "robbing_kong": robbing_kong,
        "after_kong_discard": after_kong_discard, "missing_suit": missing_suit,
    }  # fmt: skip
    if self_draw is not None:
        out["self_draw"] = self_draw
    if (parsed := parse_bets(bets)) is not None:
        out["bets"] = parsed
    try:
        Context.from_dict(out)
    except HandError as exc:
        raise HandError(f"context: {exc}", exc.code) from None
    return out
