"""Fine-tuning from a shipped model (`mjsnap train --base models/current`): the run starts from the base model's
weights and class head, at the base model's image size, with an overall progress bar across all epochs.

It is `vision.train.train` with the model taken from the base; the run folder is the same (weights/best.pt,
weights/last.pt, progress.jsonl, mjsnap_settings.json), so `mjsnap train --resume` and `mjsnap promote` work on it.
"""

from __future__ import annotations

import json
from dataclasses import asdict, replace
from pathlib import Path

from vision.train import (
    MODEL_YAML,
    TrainSettings,
    _progress_callback,
    configure_offline,
    resolve_data_config,
    run_dir,
    use_all_cores,
)


def base_checkpoint(base: Path) -> tuple[Path, int | None]:
    """(the .pt to start from, the image size it was trained at) for a model directory or a .pt file."""
    base = Path(base)
    if base.is_dir():
        weights, meta = base / "model.pt", base / "meta.json"
        if not weights.is_file() or not meta.is_file():
            raise FileNotFoundError(f"{base} is not a model directory with model.pt and meta.json")
        return weights, int(json.loads(meta.read_text(encoding="utf-8"))["imgsz"])
    if base.suffix == ".pt" and base.is_file():
        return base, None
    raise FileNotFoundError(f"--base {base}: expected a model directory (e.g. models/current) or a .pt file")


def finetune_settings(settings: TrainSettings, base: Path, keep_imgsz: bool = False) -> TrainSettings:
    """``settings`` with the base model as the starting point (its imgsz unless ``keep_imgsz``)."""
    if settings.pretrained is not None or settings.model != MODEL_YAML:
        raise ValueError("--base already gives the starting weights: do not combine it with --pretrained or --model")
    weights, imgsz = base_checkpoint(base)
    return replace(settings, model=str(weights.resolve()), imgsz=settings.imgsz if keep_imgsz or not imgsz else imgsz)


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


def finetune(settings: TrainSettings, base: Path, keep_imgsz: bool = False, progress_bar: bool = True) -> Path:
    """Run the fine-tuning; returns the run folder."""
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
    for event, callback in (_progress_bar() if progress_bar else {}).items():
        model.add_callback(event, callback)
    model.train(**settings.ultralytics_args(data_yaml))
    return folder
