"""The `mjsnap` command. Each subcommand lives in its own module; heavy imports stay inside the commands."""

from __future__ import annotations

import signal

import typer

app = typer.Typer(
    name="mjsnap",
    help="Score a Shaanxi / Xi'an / Weinan mahjong hand from a photo.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

# Subcommand registrations (one line per module; keep this list sorted).
from mjsnap.commands.batch import register as register_batch_commands; register_batch_commands(app)
from mjsnap.commands.detect import register as register_detect_commands; register_detect_commands(app)
from mjsnap.commands.read import register as register_read_command; register_read_command(app)
from mjsnap.commands.retrain import register as register_retrain_commands; register_retrain_commands(app)
from mjsnap.commands.score import register as register_score_command; register_score_command(app)
from mjsnap.commands.synth import register as register_synth_command; register_synth_command(app)
from mjsnap.commands.train import register as register_train_commands; register_train_commands(app)
from mjsnap.commands.train_two_stage import register as register_two_stage_commands; register_two_stage_commands(app)
from mjsnap.commands.turn import register as register_turn_command; register_turn_command(app)
from mjsnap.commands.version import register as register_version_option; register_version_option(app)
from mjsnap.commands.weimaque import register as register_weimaque_command; register_weimaque_command(app)


def _stop(signum, frame) -> None:
    raise KeyboardInterrupt


def main() -> None:
    """The `mjsnap` console script. SIGTERM (kill, timeout, a service manager) stops a command as Ctrl-C does: a
    batch ends its last record and says how to resume, a training run or export removes its staging folders."""
    signal.signal(signal.SIGTERM, _stop)
    app()
