"""`mjsnap score`: score one hand typed in notation, a photo, or golden.json-schema cases from a file or stdin.

    mjsnap score "123m456m789m234s5s" --rules weinan --win 5s --self-draw --winner 1 --missing-suit p
    mjsnap score "5m" --rules weinan --win 5m --meld pung:111m@2 --meld kong_concealed:2222s ... --json
    mjsnap score --json-in ../shared/rules/golden.json        # one JSON object per line (docs/score-json.md)
    mjsnap score photo.jpg --rules xian --winner 0            # photo -> hand -> score (mjsnap.pipeline)
    mjsnap score photo.jpg --rules shaanxi --discarder 2 --meld-from 0=1    # meld 0, an exposed kong, fed by seat 1
    mjsnap score "123m456m789m234s5s" --rules weinan --waits --missing-suit p --self-draw   # a 13-tile hand's waits

Bad notation or options, a photo or model that cannot be used, exit with code 2 and a message (with --json, an
input error also prints the JSON error object of docs/score-json.md); a hand (or photo) that does not win prints
why and exits 1. A photo takes the reading options of `mjsnap read` (mjsnap.commands.photo_options).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, NoReturn

import typer

from mjsnap import jsontext
from mjsnap.commands import context_options as co
from mjsnap.commands import photo_options as po

RULES_HELP = "shaanxi | shaanxi108 | xian | weinan | guiyang (partial)"
# what a case of --json-in gives itself; the same options on the command line would be silently unused
CASE_FIELDS = ("rules", "win", "meld", "self_draw", "winner", "dealer", "discarder", "bets", "kong_replacement",
               "last_tile", "heavenly", "earthly", "robbing_kong", "after_kong_discard", "missing_suit", "lang",
               "model")
# what only a photo uses: its model, how it is read, who fed its melds
PHOTO_FIELDS = ("model", *po.READING, "meld_from")
# scoring.hand.HandError codes: the case itself is wrong, not the hand's luck (docs/score-json.md)
INPUT_ERRORS = {"invalid_tiles", "wrong_tile_count", "bad_meld", "bad_seat", "bad_bets", "bad_context", "bad_case",
                "missing_win_tile", "unknown_ruleset", "invalid_hand"}


def score(
    ctx: typer.Context,
    hand: str = typer.Argument(None, help="concealed tiles before the winning tile (123m456p..), or a photo path"),
    rules: str = typer.Option("shaanxi", "--rules", "-r", help=RULES_HELP),
    win: str = typer.Option(None, "--win", "-w", help="the winning tile, e.g. 5p"),
    meld: list[str] = typer.Option(
        None,
        "--meld",
        "-m",
        help="TYPE:TILES or TYPE:TILES@SEAT (who fed it), e.g. pung:555p@2, kong_concealed:2222s; repeat",
    ),
    self_draw: bool = co.SELF_DRAW,
    winner: int = co.WINNER,
    dealer: int = co.DEALER,
    discarder: int = co.DISCARDER,
    bets: str = co.BETS,
    kong_replacement: bool = co.KONG_REPLACEMENT,
    last_tile: bool = co.LAST_TILE,
    heavenly: bool = co.HEAVENLY,
    earthly: bool = co.EARTHLY,
    robbing_kong: bool = co.ROBBING_KONG,
    after_kong_discard: bool = co.AFTER_KONG_DISCARD,
    missing_suit: str = co.MISSING_SUIT,
    option: list[str] = co.RULE_OPTION,
    list_options: bool = co.LIST_RULE_OPTIONS,
    lang: str = typer.Option("zh", "--lang", help="zh | en names in the breakdown"),
    as_json: bool = typer.Option(False, "--json", help="print the result as one JSON object"),
    list_waits: bool = typer.Option(False, "--waits", help="a 13-tile hand (no --win): every tile that completes it, "
                                    "and what that win would score"),
    json_in: str = typer.Option(None, "--json-in", help="score golden.json-schema cases from FILE or - (stdin)"),
    model: Path = typer.Option(None, "--model", help="photo: model directory (default: models/current)"),
    win_tile: str = po.WIN_TILE,
    face_up_kong: str = po.FACE_UP_KONG,
    kong_kind: list[str] = po.KONG_KIND,
    meld_type: list[str] = po.MELD_TYPE,
    reread_tiles: int = po.REREAD_TILES,
    meld_from: list[str] = po.MELD_FROM,
) -> None:
    """Score a hand: shapes, items, and the points each seat wins or pays."""
    options = co.rule_options(option)
    if lang not in ("zh", "en"):
        _fail(f"--lang {lang!r}: use zh or en")
    if json_in is not None:
        if hand is not None:
            _fail("give either a hand or --json-in, not both")
        ignored = [name for name in dict.fromkeys(CASE_FIELDS + PHOTO_FIELDS) if _given(ctx, name)]
        ignored += ["waits"] * list_waits
        if ignored:
            _fail(f"{_flags(ignored)}: not used with --json-in, where each case gives its own rule set, hand and "
                  "context")
        _score_json_in(json_in, options)
        return
    if hand is None:
        _fail('give a hand ("123m456p...") with --win, a photo path, or --json-in FILE')
    from scoring.hand import HandError
    from scoring.scorer import PARTIAL_RULESETS, RULESETS

    if rules not in RULESETS + PARTIAL_RULESETS:
        _refuse(rules, HandError(f"--rules {rules!r}: use one of {', '.join(RULESETS + PARTIAL_RULESETS)}",
                                 "unknown_ruleset"), as_json)
    try:
        context = co.context(
            winner=winner, dealer=dealer, discarder=discarder, self_draw=self_draw, bets=bets,
            kong_replacement=kong_replacement, last_tile=last_tile, heavenly=heavenly, earthly=earthly,
            robbing_kong=robbing_kong, after_kong_discard=after_kong_discard, missing_suit=missing_suit,
        )
    except HandError as exc:
        _refuse(rules, exc, as_json)
    photo = _photo_path(hand, rules, as_json)
    if photo is not None:
        typed_only = [name for name in ("win", "meld") if _given(ctx, name)] + ["waits"] * list_waits
        if typed_only:
            _fail(f"{_flags(typed_only)}: not for a photo, whose tiles, melds and winning tile are read from it; "
                  "name its winning tile with --win-tile, a meld's type with --meld-type I=TYPE and the seat that "
                  "fed it with --meld-from I=SEAT (docs/photo-layout.md)")
        try:
            read_options = po.read_options(win_tile=win_tile, face_up_kong=face_up_kong, kong_kind=kong_kind,
                                           meld_type=meld_type, reread_tiles=reread_tiles)
            feeders = po.meld_feeders(meld_from)
        except po.PhotoOptionError as exc:
            _fail(str(exc))
        _note_unused_context(rules, context, option or [])
        _score_photo(photo, rules, options, context, model, read_options, feeders, lang, as_json)
        return
    for_photo = [name for name in PHOTO_FIELDS if _given(ctx, name)]
    if for_photo:
        _fail(f"{_flags(for_photo)}: for scoring a photo, and the hand given is notation (or no such file)")
    from scoring.scorer import parse_hand
    from scoring.scorer import score as score_hand

    try:
        melds = [_parse_meld(text) for text in meld or []]
    except HandError as exc:
        _refuse(rules, exc, as_json)
    if list_waits:
        if win is not None:
            _fail("--waits lists the tiles that complete a 13-tile hand: leave --win out")
        _print_waits(hand, melds, context, rules, options, lang, as_json)
        return
    if win is None or not win.strip():
        _refuse_unreadable_notation(hand, rules, as_json)  # "IMG_0001" (no such photo) is no hand missing its --win
        _refuse(rules, HandError("--win is required: the tile that completes the hand (e.g. --win 5p), or --waits "
                                 "for a 13-tile hand", "missing_win_tile"), as_json)
    try:
        parsed = parse_hand(hand, win, melds, context)
    except HandError as exc:
        _refuse(rules, exc, as_json, "bad hand: ")
    _note_unused_context(rules, context, option or [])
    result = score_hand(parsed, rules, options)
    _say_how_to_feed_a_kong(result, parsed)
    if as_json:
        typer.echo(jsontext.dumps(result.to_json()))
    else:
        _print_breakdown(result, parsed, lang)
    if not result.valid:
        raise typer.Exit(1)


COMPONENT_NAMES = {
    "zh": {"hu": "胡牌分数", "paozi": "下炮子", "kong": "杠", "win": "胡牌", "bets": "下注", "fan": "番"},
    "en": {"hu": "win", "paozi": "bets (paozi)", "kong": "kongs", "win": "win", "bets": "bets", "fan": "fan"},
}
LABELS = {
    "zh": {"hand": "手牌", "shapes": "牌型", "scored": "计分牌型", "item": "项目", "value": "分值", "why": "说明",
           "seat": "座位", "total": "合计", "winner": "胡", "dealer": "庄", "not_win": "不能胡",
           "decisions": "规则选择", "warnings": "注意", "base": "每家胡牌基数",
           "base_why": "每一行取代上一行的基数，不相加；下注和杠另计", "wait": "听牌", "winner_gets": "胡家得分",
           "items": "项目", "no_waits": "这手牌不听牌（没有一张牌能胡）", "read_warnings": "识别提示",
           "pattern_fan": "牌型番"},
    "en": {"hand": "hand", "shapes": "shapes", "scored": "scored as", "item": "item", "value": "value",
           "why": "reason", "seat": "seat", "total": "total", "winner": "winner", "dealer": "dealer",
           "not_win": "no win", "decisions": "rule switches", "warnings": "warnings", "base": "win base per payer",
           "base_why": "each row replaces the base above it (they do not add up); bets and kongs come on top",
           "wait": "wait", "winner_gets": "winner gets", "items": "items",
           "no_waits": "no tile completes this hand (it is not ready)", "read_warnings": "reading notes",
           "pattern_fan": "pattern fan"},
}


def _why_not(result, lang: str) -> str:
    """Why a hand scores nothing: a rule's reason in the language asked, as the app says it; an input error's own
    words, which name the very tile, seat or option."""
    from mjsnap.i18n_catalogue import explain

    return result.error if result.reason in INPUT_ERRORS else explain(result.reason, lang, result.error)


def _print_breakdown(result, hand, lang: str) -> None:
    """A readable breakdown: hand, shapes, items, then who pays whom per component and the net deltas."""
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    from mjsnap.i18n_catalogue import PARTIAL_NOTES, decision, explain, item_note, pick, shape_name

    words = LABELS[lang]
    console = Console()
    console.print(f"[bold]{result.ruleset}[/bold]  {words['hand']}: {escape(_hand_line(hand, lang))}")
    scored = f"  ({words['scored']}: {shape_name(result.scored_shape, lang)})" if result.scored_shape else ""
    console.print(f"{words['shapes']}: {', '.join(shape_name(s, lang) for s in result.shapes) or '-'}{scored}")
    if result.items:
        items = Table(show_header=True)
        for column in ("item", "value", "why"):
            items.add_column(words[column], justify="right" if column == "value" else "left")
        for item in result.items:
            items.add_row(item.zh if lang == "zh" else item.en, str(item.value), item_note(item.name, lang, item.reason))
        if result.fan is not None:  # Guiyang's is the pattern's alone: 连庄 is paid by some payers, not all
            items.add_row(words["pattern_fan" if result.ruleset == "guiyang" else "total"], str(result.fan), "")
        if getattr(result, "per_payer_win_base", None) is not None:  # Xi'an's rows are successive bases, not addends
            items.add_row(words["base"], str(result.per_payer_win_base), words["base_why"])
        console.print(items)
    if not result.valid:
        console.print(f"[red]{words['not_win']}[/red]: {_why_not(result, lang)} ({result.reason})")
    elif result.deltas is not None:  # a partial rule set (guiyang) may leave the amounts unknown
        ctx = hand.context
        seats = Table(show_header=True)
        seats.add_column("")
        for seat in range(4):
            marks = [words["winner"]] * (seat == ctx.winner) + [words["dealer"]] * (seat == ctx.dealer)
            seats.add_column(f"{words['seat']} {seat}" + (f" ({'/'.join(marks)})" if marks else ""), justify="right")
        for component in dict.fromkeys(p.component for p in result.payments):
            row = [0, 0, 0, 0]
            for p in (p for p in result.payments if p.component == component):
                row[p.payer] -= p.amount
                row[p.payee] += p.amount
            seats.add_row(COMPONENT_NAMES[lang].get(component, component), *(f"{v:+d}" for v in row))
        seats.add_row(f"[bold]{words['total']}[/bold]", *(f"[bold]{v:+d}[/bold]" for v in result.deltas))
        console.print(seats)
    notes = {"decisions": [decision(text, lang) for text in result.decisions],
             "warnings": [explain(code, lang, text) for code, text in zip(result.warning_codes, result.warnings)]}
    for key, lines in notes.items():
        if lines:
            console.print(f"{words[key]}: {escape('; '.join(lines))}")
    if getattr(result, "partial", None):
        note = PARTIAL_NOTES.get(result.ruleset)
        console.print(f"[yellow]{escape(pick(note, lang) if note else result.partial)}[/yellow]")


def _print_waits(hand: str, melds: list[dict[str, Any]], context: dict[str, Any], rules: str, options, lang: str,
                 as_json: bool) -> None:
    """The waits of a 13-tile hand, each with what winning on it would score (one JSON line each with --json)."""
    from rich.console import Console
    from rich.table import Table

    from scoring.hand import HandError
    from scoring.scorer import parse_hand, waits

    try:
        hand13 = parse_hand(hand, None, melds, context)
        found = waits(hand13, rules, options)
    except HandError as exc:
        _refuse(rules, exc, as_json, "bad hand: ")
    for entry in found:  # as for a scored hand: the command line gives a kong's feeder as @SEAT, not golden's 'from'
        _say_how_to_feed_a_kong(entry["result"], hand13)
    if as_json:
        for entry in found:
            typer.echo(jsontext.dumps({"tile": entry["tile"], **entry["result"].to_json()}))
        return
    words = LABELS[lang]
    if not found:
        typer.echo(words["no_waits"])
        return
    table = Table(show_header=True)
    for column in ("wait", "winner_gets", "items"):
        table.add_column(words[column], justify="right" if column == "winner_gets" else "left")
    winner = context.get("winner", 0)
    for entry in found:
        result = entry["result"]
        items = ", ".join(f"{item.zh if lang == 'zh' else item.en} {item.value}" for item in result.items)
        gets = f"{result.deltas[winner]:+d}" if result.valid and result.deltas is not None else words["not_win"]
        table.add_row(entry["tile"], gets, items if result.valid else f"{_why_not(result, lang)} ({result.reason})")
    Console().print(table)


def _score_json_in(source: str, options) -> None:
    from scoring.scorer import score_case

    try:
        text = sys.stdin.read() if source == "-" else Path(source).read_text(encoding="utf-8")
    except OSError as exc:
        _fail(f"cannot read {source}: {exc.strerror or exc}")
    except UnicodeDecodeError:
        _fail(f"{source} is not UTF-8 text (JSON cases are UTF-8)")
    try:
        data = jsontext.loads(text)
    except ValueError as exc:
        _fail(f"{source} is not JSON: {exc}")
    if isinstance(data, dict) and "cases" in data:
        data = data["cases"]
    cases = data if isinstance(data, list) else [data]
    refused = []
    for number, case in enumerate(cases, start=1):
        result = score_case(case, options)
        typer.echo(jsontext.dumps(result.to_json()))  # an id read from JSON may hold a lone surrogate
        if result.reason in INPUT_ERRORS:
            refused.append(str(result.id if result.id is not None else f"#{number}"))
    if refused:  # each line says why; this says how many, where a person reads (stdout stays JSON lines)
        typer.echo(f"{len(refused)} of {len(cases)} cases are not valid input: {', '.join(refused[:10])}"
                   + (" ..." if len(refused) > 10 else ""), err=True)


def _photo_path(hand: str, rules: str, as_json: bool) -> Path | None:
    """The photo the argument names, or None for hand notation; a photo path that names nothing is refused (with
    --json, as a photo that cannot be read: `unreadable_image`, `read` null). A folder named like a photo goes to
    the reader, which says what it is (as `mjsnap read` and `mjsnap detect` do)."""
    from vision.imageio import PHOTO_SUFFIXES

    path = Path(hand)
    looks_like_a_path = path.suffix.lower() in PHOTO_SUFFIXES or "/" in hand or "\\" in hand
    if path.is_file() or (looks_like_a_path and path.is_dir()):
        return path
    if looks_like_a_path:
        message = f"{hand}: no such file (a photo path), and not hand notation either"
        if as_json:
            from mjsnap.pipeline import unread
            from scoring.hand import HandError

            typer.echo(jsontext.dumps(unread(rules, path, HandError(message, "unreadable_image")).to_json()))
        _fail(message)
    return None


def _refuse_unreadable_notation(hand: str, rules: str, as_json: bool) -> None:
    """Notation that does not parse is the first thing to say, not the --win it lacks: the argument may be a photo
    that is not there (an extensionless name), which the message then mentions."""
    from scoring.hand import HandError
    from scoring.tiles import TileParseError, parse_tiles

    try:
        parse_tiles(hand, check_copies=False)
    except TileParseError as exc:
        photo = " (and no photo of that name here)" if exc.position == 0 else ""  # it does not even start as notation
        _refuse(rules, HandError(f"{exc}{photo}", "invalid_tiles"), as_json, "bad hand: ")


def _score_photo(path: Path, rules: str, options, context: dict[str, Any], model: Path | None, read_options,
                 meld_from: dict[int, int], lang: str, as_json: bool) -> None:
    """Read and score the photo; a photo or model that cannot be used is an input error (exit 2), a photo read
    but not scored exits 1, as a typed hand that does not win."""
    from mjsnap.pipeline import photo_score, unread
    from scoring.hand import HandError
    from vision.detector import ModelNotFoundError, TileDetector

    try:
        detector = TileDetector(model) if model is not None else None
    except (ModelNotFoundError, ValueError) as exc:  # as the pipeline says it of models/current: `read` null
        scored = unread(rules, path, HandError(f"--model {model}: {exc}", "model_not_found"))
    else:
        scored = photo_score(path, rules, options, context, detector=detector, read_options=read_options,
                             meld_from=meld_from)
    if as_json:
        typer.echo(jsontext.dumps(scored.to_json()))
    if scored.read is None:
        _fail(scored.result.error)
    if not as_json:
        _print_photo(scored, lang)
    if not scored.result.valid:
        raise typer.Exit(1)


def _print_photo(scored, lang: str) -> None:
    """The breakdown a typed hand gets (or the hand as read and why it is no Hand), then the reader's warnings."""
    from rich.console import Console
    from rich.markup import escape

    from mjsnap.i18n_catalogue import explain

    words = LABELS[lang]
    console = Console()
    if scored.hand is not None:
        _print_breakdown(scored.result, scored.hand, lang)
    else:
        console.print(f"[bold]{scored.result.ruleset}[/bold]  {words['hand']}: {escape(_hand_line(scored.read, lang))}")
        console.print(f"[red]{words['not_win']}[/red]: {escape(_why_not(scored.result, lang))} ({scored.result.reason})")
    notes = [f"{w.code}: {explain(w.code, lang, w.message)}" for w in scored.read.warnings]
    if notes:
        console.print(f"{words['read_warnings']}: {escape('; '.join(notes))}")


def _hand_line(hand, lang: str) -> str:
    """A scored Hand or a hand as read (vision.normalize.ReadHand) in one line, the meld types in the language asked
    (as the app names them): tile notation has no words for them."""
    from mjsnap.i18n_catalogue import meld_name
    from vision.normalize.result import hand_line

    return hand_line(hand, lambda meld_type: meld_name(meld_type.value, lang))


def _say_how_to_feed_a_kong(result, hand) -> None:
    """The scorer names golden.json's 'from' for an exposed kong without its feeder; the command line has @SEAT."""
    from scoring.settlement import unfed_kong_message

    if result.reason == "kong_feeder_missing":
        result.error = unfed_kong_message(hand, "kong_exposed {tiles}", "write --meld kong_exposed:{tiles}@SEAT",
                                          "kong_added:{tiles}")


def _parse_meld(text: str) -> dict[str, Any]:
    """``TYPE:TILES[@FROM]`` -> golden.json's meld object; HandError (bad_meld, bad_seat) when it is not one."""
    from scoring.hand import HandError

    kind, sep, rest = text.partition(":")
    if not sep or not rest:
        raise HandError(f"--meld {text!r}: write TYPE:TILES[@FROM], e.g. pung:555p@2 or kong_concealed:2222s",
                        "bad_meld")
    tiles, at, seat = rest.partition("@")
    meld: dict[str, Any] = {"type": kind.strip(), "tiles": tiles.strip()}
    if at:
        if not seat.strip().isdecimal():
            raise HandError(f"--meld {text!r}: the seat after @ must be 0-3", "bad_seat")
        meld["from"] = int(seat)
    return meld


def _note_unused_context(rules: str, context: dict[str, Any], option_pairs: list[str]) -> None:
    """A person's note on stderr (the result is unchanged) for what the rule set has no use for."""
    from scoring.options import overrides_of

    notes = []
    if rules == "weinan" and any(context.get("bets") or ()):
        notes.append("Weinan has no bets (下注 / 炮子): --bets is not used")
    if rules != "weinan" and context.get("missing_suit"):
        notes.append("--missing-suit (定缺) is Weinan's: not used here")
    if rules == "shaanxi108" and overrides_of(option_pairs).get("shaanxi.variant", "108") != "108":
        notes.append("--rules shaanxi108 is the 108-tile variant whatever shaanxi.variant says")
    for note in notes:
        typer.echo(f"note: {note}", err=True)


def _given(ctx: typer.Context, name: str) -> bool:
    """Whether the option was typed on the command line (typer carries its own click: its enum is matched by name)."""
    source = ctx.get_parameter_source(name)
    return source is not None and source.name == "COMMANDLINE"


def _flags(names: list[str]) -> str:
    return ", ".join("--" + name.replace("_", "-") for name in names)


def _refuse(rules: str, exc, as_json: bool, label: str = "") -> NoReturn:
    """An input error (scoring.hand.HandError): with --json the documented error object on stdout first, as
    --json-in prints for a bad case (docs/score-json.md), then the message and the usage exit."""
    if as_json:
        from scoring.scorer import invalid_input

        typer.echo(jsontext.dumps(invalid_input(rules, exc).to_json()))
    _fail(f"{label}{exc}")


def _fail(message: str) -> NoReturn:
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(2)


def register(app: typer.Typer) -> None:
    app.command("score")(score)
