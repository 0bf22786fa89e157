"""Every command's --help: it runs, and it reads as a command line (typer 0.27-0.29 wrote `{images}...` for an
argument and `<bool>` after a flag, as if `--json` took a value; pyproject keeps typer below 0.27)."""

import pytest
import typer
from typer.testing import CliRunner

from mjsnap.cli import app

ROOT = typer.main.get_command(app)


def _commands(group, path: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    found = [path]
    for name, command in group.commands.items():
        if hasattr(command, "commands"):  # a group (typer may bring its own copy of click's classes)
            found += _commands(command, (*path, name))
        else:
            found.append((*path, name))
    return found


COMMANDS = _commands(ROOT)


def test_every_command_is_walked():
    assert {("score",), ("batch",), ("detect",), ("label",), ("label", "import"), ("train-two-stage",)} <= set(COMMANDS)


@pytest.mark.parametrize("path", COMMANDS, ids=lambda path: " ".join(path) or "mjsnap")
def test_help_reads_as_a_command_line(path):
    result = CliRunner().invoke(app, [*path, "--help"], terminal_width=200)
    assert result.exit_code == 0, result.output
    usage = next(line for line in result.output.splitlines() if "Usage:" in line)
    assert "{" not in usage and "<" not in usage, usage
    assert "<bool>" not in result.output


def _options(path):
    command = ROOT
    for name in path:
        command = command.commands[name]
    return [param for param in command.params if param.param_type_name == "option"]


@pytest.mark.parametrize("path", [path for path in COMMANDS if path], ids=" ".join)
def test_every_option_says_what_it_does(path):
    assert [param.name for param in _options(path) if not param.help] == []
