"""`mjsnap weimaque`: the 息 of a finished 安乡偎麻雀 hand (seed 003), typed as its groups.

    mjsnap weimaque "碰 柒柒柒, 煨 3 3 3, 砍 十十十, 吃 7B 8B 9B, 吃 一二三, 吃 四五六, 雀 捌捌*"
    mjsnap weimaque "碰 柒柒柒" "煨 3 3 3" ... --last-card -o weimaque.erqishi_sets=true --json

Groups may come as one argument separated by commas or as several arguments. Notation: docs/weimaque.md.
Bad notation or options exit with code 2 and a message naming the token; a hand that does not win prints why and
exits 1. The seed gives no payment rule, so no settlement is printed.
"""

from __future__ import annotations

import json

import typer

KIND_LABELS = {
    "zh": {"hard": "硬息", "add": "名堂", "multiply": "倍数", "house": "自定"},
    "en": {"hard": "hard", "add": "named", "multiply": "×", "house": "house"},
}
LABELS = {
    "zh": {"item": "项目", "kind": "类", "value": "息", "why": "说明", "hard": "硬息", "total": "总息",
           "not_win": "不能胡", "decisions": "规则选择", "warnings": "注意", "settlement": "结算"},
    "en": {"item": "item", "kind": "kind", "value": "xi", "why": "reason", "hard": "hard xi", "total": "total xi",
           "not_win": "no win", "decisions": "rule switches", "warnings": "warnings", "settlement": "settlement"},
}


def weimaque(
    groups: list[str] = typer.Argument(..., help="the hand's groups, e.g. '碰 柒柒柒, 煨 3 3 3, ..., 雀 捌捌*'"),
    last_card: bool = typer.Option(False, "--last-card", help="won on the last card (海底胡)"),
    shou_qian_shou: bool = typer.Option(False, "--shou-qian-shou", help="the hand is 手牵手 (needs a house value)"),
    option: list[str] = typer.Option(None, "--option", "-o", help="switch KEY=VALUE, e.g. weimaque.erqishi_sets=true"),
    lang: str = typer.Option("zh", "--lang", help="zh | en names in the breakdown"),
    as_json: bool = typer.Option(False, "--json", help="print the result as one JSON object"),
) -> None:
    """安乡偎麻雀: 硬息, 名堂息 and 总息 of a finished hand."""
    from scoring.weimaque import (
        WeimaqueContext, WeimaqueInputError, WeimaqueOptionError, WeimaqueOptions, WeimaqueResult, parse_hand, score,
    )

    if lang not in LABELS:
        _fail(f"--lang {lang!r}: use zh or en")
    try:
        options = WeimaqueOptions.from_pairs(option or [])
    except WeimaqueOptionError as exc:
        _fail(str(exc))
    try:
        hand = parse_hand(", ".join(groups), WeimaqueContext(last_card=last_card, shou_qian_shou=shou_qian_shou))
    except WeimaqueInputError as exc:
        # each argument is a group: a type word given unquoted ("碰 柒柒柒" as two arguments) is a group with no card
        hint = ("; each argument is one group: quote a group with its cards, e.g. '碰 柒柒柒'"
                if exc.code == "empty_group" and len(groups) > 1 else "")
        if as_json:  # as `mjsnap score --json` does for bad notation: a script reading stdout learns why
            refused = WeimaqueResult(valid=False, error=f"{exc}{hint}", reason=exc.code)
            typer.echo(json.dumps(refused.to_json(), ensure_ascii=False))
        _fail(f"bad hand: {exc}{hint}")
    result = score(hand, options)
    if as_json:
        typer.echo(json.dumps(result.to_json(), ensure_ascii=False))
    else:
        _print_breakdown(result, lang)
    if not result.valid:
        raise typer.Exit(1)


def _print_breakdown(result, lang: str) -> None:
    from rich.console import Console
    from rich.table import Table

    from mjsnap.app.i18n import weimaque_decision
    from mjsnap.i18n_catalogue import WEIMAQUE_CODES, WEIMAQUE_ITEM_NOTES, WEIMAQUE_SETTLEMENT, explain, pick

    words = LABELS[lang]
    console = Console()
    console.print(f"[bold]安乡偎麻雀[/bold]  {result.hand}")
    if result.items:
        table = Table(show_header=True)
        for column in ("item", "kind", "value", "why"):
            table.add_column(words[column], justify="right" if column == "value" else "left")
        for item in result.items:
            value = f"×{item.value}" if item.kind == "multiply" else str(item.value)
            why = item.reason if lang == "en" else pick(WEIMAQUE_ITEM_NOTES[item.name], lang)  # as the app's page
            table.add_row(item.zh if lang == "zh" else item.en, KIND_LABELS[lang][item.kind], value, why)
        console.print(table)
    if result.hard_xi is not None:
        console.print(f"{words['hard']}: {result.hard_xi}")
    if result.valid:
        console.print(f"[bold]{words['total']}: {result.total_xi}[/bold]")
    else:
        console.print(f"[red]{words['not_win']}[/red]: {explain(result.reason, lang, result.error, WEIMAQUE_CODES)} "
                      f"({result.reason})")
    if result.decisions:
        console.print(f"{words['decisions']}: {'; '.join(weimaque_decision(text, lang) for text in result.decisions)}")
    if result.warnings:
        notes = (explain(code, lang, text, WEIMAQUE_CODES) for code, text in zip(result.warning_codes, result.warnings))
        console.print(f"{words['warnings']}: {'; '.join(notes)}")
    settlement = result.settlement if lang == "en" else pick(WEIMAQUE_SETTLEMENT, lang)
    console.print(f"{words['settlement']}: {settlement}")


def _fail(message: str) -> None:
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(2)


def register(app: typer.Typer) -> None:
    app.command("weimaque")(weimaque)
