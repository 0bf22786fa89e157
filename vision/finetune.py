"""Fine-tuning from a shipped model (`mjsnap train --base models/current`): the run starts from the base model's
weights and class head, at the base model's image size, with an overall progress bar across all epochs.

For a one-stage base it is `vision.train.train` with the model taken from the base; the run folder is the same
(weights/best.pt, weights/last.pt, progress.jsonl, mjsnap_settings.json), so `mjsnap train --resume` and
`mjsnap promote` work on it. A two-stage base (design (b)) is fine-tuned stage by stage by
`vision.twostage.finetune`, whose run folder holds the candidate model directory RUN/model.
"""

from __future__ import annotations

import json
from dataclasses import asdict, replace
from pathlib import Path
from typing import Any

from vision.export import check_detector_checkpoint
from vision.train import (
    FINETUNE_WARMUP_BIAS_LR,
    MODEL_YAML,
    TrainSettings,
    _progress_callback,
    configure_offline,
    keep_last_good,
    resolve_data_config,
    run_dir,
    use_all_cores,
)
from vision.twostage import finetune as two_stage
from vision.twostage.finetune import TwoStageFinetune, is_two_stage


def base_checkpoint(base: Path) -> tuple[Path, int | None]:
    """(the .pt to start from, the image size it was trained at) for a model directory or a .pt file."""
    base = Path(base)
    if base.is_dir():
        weights, meta = base / "model.pt", base / "meta.json"
        if not weights.is_file() or not meta.is_file():
            raise FileNotFoundError(f"{base} is not a model directory with model.pt and meta.json")
        return weights, int(json.loads(meta.read_text(encoding="utf-8"))["imgsz"])
    if base.suffix == ".pt" and base.is_file():
        check_detector_checkpoint(base)  # no checkpoint, or a two-stage network: refused before the run folder is made
        return base, None
    raise FileNotFoundError(f"--base {base}: expected a model directory (e.g. models/current) or a .pt file")


def _refuse_other_starts(settings: TrainSettings) -> None:
    if settings.pretrained is not None or settings.model != MODEL_YAML:
        raise ValueError("--base already gives the starting weights: do not combine it with --pretrained or --model")


def finetune_settings(settings: TrainSettings, base: Path, keep_imgsz: bool = False) -> TrainSettings:
    """``settings`` with the base model as the starting point (its imgsz unless ``keep_imgsz``), biases warmed up
    from 0 (FINETUNE_WARMUP_BIAS_LR)."""
    _refuse_other_starts(settings)
    weights, imgsz = base_checkpoint(base)
    return replace(settings, model=str(weights.resolve()), imgsz=settings.imgsz if keep_imgsz or not imgsz else imgsz,
                   warmup_bias_lr=FINETUNE_WARMUP_BIAS_LR)


def _progress_bar():
    """Callbacks drawing one bar over every training batch of the run (ultralytics' own bars are per epoch)."""
    from tqdm import tqdm

    state: dict = {}

    def on_train_start(trainer) -> None:
        batches = len(trainer.train_loader)
        state["bar"] = tqdm(total=batches * trainer.epochs, initial=batches * trainer.start_epoch,
                            desc="fine-tune", unit="batch", dynamic_ncols=True)

    def on_train_batch_end(trainer) -> None:
        state["bar"].update(1)

    def on_train_end(trainer) -> None:
        state.pop("bar").close()

    return {"on_train_start": on_train_start, "on_train_batch_end": on_train_batch_end, "on_train_end": on_train_end}


def two_stage_job(settings: TrainSettings, base: Path, keep_imgsz: bool = False, **classifier: Any) -> TwoStageFinetune:
    """The two-stage run for ``settings`` (``classifier``: TwoStageFinetune's classifier_* and replay fields)."""
    _refuse_other_starts(settings)
    return TwoStageFinetune(
        data=Path(settings.data), base=Path(base), epochs=settings.epochs, imgsz=settings.imgsz if keep_imgsz else None,
        batch=settings.batch, lr0=settings.lr0, fraction=settings.fraction, hours=settings.hours, name=settings.name,
        project=Path(settings.project), command=settings.command, **classifier,
    )


def finetune(settings: TrainSettings, base: Path, keep_imgsz: bool = False, progress_bar: bool = True,
             **classifier: Any) -> Path:
    """Run the fine-tuning; returns the run folder. ``classifier`` (classifier_minutes, classifier_epochs, replay:
    TwoStageFinetune's fields) applies to a two-stage base only; None values are left out."""
    classifier = {key: value for key, value in classifier.items() if value is not None}
    if is_two_stage(base):
        return two_stage.start(two_stage_job(settings, base, keep_imgsz, **classifier)).parent
    if classifier:
        options = ", ".join(f"--{name.replace('_', '-')}" for name in classifier)
        verb = "applies" if len(classifier) == 1 else "apply"
        raise ValueError(f"{base} is a one-stage model: {options} {verb} to a two-stage base only")
    settings = finetune_settings(settings, base, keep_imgsz)
    configure_offline()
    folder = run_dir(settings)
    folder.mkdir(parents=True, exist_ok=True)
    data_yaml = resolve_data_config(settings.data, folder)
    use_all_cores()
    from ultralytics import YOLO

    record = {**asdict(settings), "base": str(Path(base).resolve())}
    (folder / "mjsnap_settings.json").write_text(json.dumps(record, default=str, indent=1))
    model = YOLO(settings.model)
    model.add_callback("on_fit_epoch_end", _progress_callback(folder / "progress.jsonl"))
    keep_last_good(model)
    for event, callback in (_progress_bar() if progress_bar else {}).items():
        model.add_callback(event, callback)
    model.train(**settings.ultralytics_args(data_yaml))
    return folder
