"""`mjsnap train`, `mjsnap eval`, `mjsnap export`: the model's life cycle (needs the `train` extra: torch, ultralytics)."""

from __future__ import annotations

from pathlib import Path
from typing import NoReturn

import typer

from mjsnap.commands.number_options import finite, positive
from mjsnap.commands.output_paths import require_output_dir, require_output_file

PRETRAINED_MAHJONG_DETECTOR = "mahjong-detector"


def _pretrained_start(choice: str | None) -> Path | None:
    """`mahjong-detector` builds the converted checkpoint (vision.pretrained); anything else is a .pt path."""
    if choice is None or choice == "none":
        return None
    if choice != PRETRAINED_MAHJONG_DETECTOR:
        path = Path(choice)
        if not path.is_file():
            raise typer.BadParameter(f"{path} does not exist", param_hint="--pretrained")
        from vision.train import read_checkpoint

        try:
            read_checkpoint(path)  # else ultralytics fails on it in the run folder, with a traceback
        except ValueError as exc:
            raise typer.BadParameter(str(exc), param_hint="--pretrained") from None
        return path
    from vision.pretrained import build_pretrained_checkpoint
    from vision.train import WORK_DIR

    out = WORK_DIR / "pretrained" / "mahjong_detector_yolo11n.pt"
    if not out.is_file():
        build_pretrained_checkpoint(out)
    return out


def train(
    ctx: typer.Context,
    data: Path = typer.Option(None, help="dataset folder (its data.yaml) or datasets/*.yaml config"),
    epochs: int = typer.Option(10, min=1, help="fixed number of epochs (no early stopping)"),
    imgsz: int = typer.Option(480, min=32, help="training image size; inference must use the same"),
    batch: int = typer.Option(16, min=1, help="images per training step"),
    model: str = typer.Option("yolo11n.yaml", help="model YAML (never a hub name) or a local .pt to fine-tune"),
    pretrained: str = typer.Option(
        None, help="'mahjong-detector' (converted from the PyPI package), a local .pt, or omit for scratch"
    ),
    name: str = typer.Option("run", help="run folder name under --project"),
    project: Path = typer.Option(None, help="runs folder (default work/runs)"),
    optimizer: str = typer.Option("AdamW", help="AdamW, SGD, ... (auto would ignore --lr0)"),
    lr0: float = typer.Option(0.001, callback=positive, help="initial learning rate"),
    warmup_epochs: float = typer.Option(1.0, min=0.0, callback=finite,
                                        help="epochs over which the learning rate rises to --lr0"),
    close_mosaic: int = typer.Option(2, min=0, help="last epochs without mosaic"),
    fraction: float = typer.Option(1.0, min=0.0, max=1.0, callback=finite,
                                   help="fraction of the training images to use"),
    hours: float = typer.Option(
        None, callback=positive,
        help="wall-time budget; ultralytics then sets the epochs to fit it (two-stage base: of both stages)"
    ),
    resume: Path = typer.Option(
        None, help="continue an interrupted run from RUN/weights/last.pt (a two-stage fine-tune: from RUN)"
    ),
    base: Path = typer.Option(
        None, help="fine-tune from a model directory (e.g. models/current) or a .pt, at its imgsz (vision.finetune)"
    ),
    classifier_minutes: float = typer.Option(
        None, min=0.1, callback=finite,
        help="two-stage base: classifier wall-time budget (default a quarter of --hours, else 10)"
    ),
    classifier_epochs: int = typer.Option(None, min=1, help="two-stage base: most classifier epochs (default 30)"),
    replay: int = typer.Option(
        None, min=0, help="two-stage base: synthetic photos (mjsnap synth) trained on beside --data's, so the model "
                          "keeps what your photos do not show: face-down tiles, other tile sets (default: as many "
                          "as the train photos, at most 300; 0: none)"
    ),
) -> None:
    """Train a YOLO tile detector offline; progress lines go to stdout and RUN/progress.jsonl."""
    from vision import train as training
    from vision.twostage import finetune as two_stage

    if resume is not None:
        two_stage_run = two_stage.run_folder_of(resume)
        if two_stage_run is None and not resume.is_file():
            _refuse(f"--resume {resume}: no such run (give RUN/weights/last.pt, or the folder of a two-stage "
                    "fine-tune: the one holding finetune.json)")
        try:
            folder = training.resume(resume) if two_stage_run is None else two_stage.resume(two_stage_run).parent
        except ValueError as exc:  # a file that is no checkpoint
            _refuse(f"--resume {exc}")
    else:
        if data is None:
            raise typer.BadParameter("give --data (a dataset folder or datasets/*.yaml config) or --resume",
                                     param_hint="--data")
        if project is not None:
            require_output_dir("--project", project)
        settings = training.TrainSettings(
            # absolute, as the run records them: `--resume RUN` from another folder finds the data and the run
            data=_data_config(data).absolute(),
            epochs=epochs,
            imgsz=imgsz,
            batch=batch,
            model=model,
            pretrained=_pretrained_start(pretrained),
            name=name,
            project=(project or training.WORK_DIR / "runs").absolute(),
            optimizer=optimizer,
            lr0=lr0,
            warmup_epochs=warmup_epochs,
            close_mosaic=close_mosaic,
            fraction=fraction,
            command=_command_line(ctx.params),
            hours=hours,
        )
        if base is not None:
            from vision.finetune import finetune

            # the base model's imgsz unless --imgsz was given (typer vendors click: compare the source by name)
            keep_imgsz = ctx.get_parameter_source("imgsz").name != "DEFAULT"
            try:
                folder = finetune(settings, base, keep_imgsz=keep_imgsz, classifier_minutes=classifier_minutes,
                                  classifier_epochs=classifier_epochs, replay=replay)
            except (ValueError, FileExistsError, FileNotFoundError) as exc:
                typer.echo(f"error: {exc}", err=True)
                raise typer.Exit(2) from None
        else:
            try:
                training.data_folders(settings.data)  # a missing folder: one line, before the run folder is made
            except (ValueError, FileNotFoundError) as exc:
                _refuse(f"--data {settings.data}: {exc}")
            folder = training.train(settings)
    typer.echo(f"run folder: {folder}")
    if (folder / "model" / "meta.json").is_file():  # a two-stage fine-tune's candidate
        typer.echo(f"candidate model: {folder / 'model'}")


def _data_config(data: Path) -> Path:
    """The YAML behind --data (a dataset folder means its data.yaml, as for `compare`); a wrong path is one line
    and exit 2 before any run folder is made."""
    from vision.compare import resolve_data

    try:
        return resolve_data(data)
    except FileNotFoundError as exc:
        _refuse(f"--data {exc}")


def _refuse(message: str) -> NoReturn:
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(2)


def _check_imgsz(option: str, imgsz: int) -> None:
    """Checked before an export writes a model directory that no reader would load (vision.imgsz's rule)."""
    from vision.imgsz import STRIDE, is_model_imgsz

    if not is_model_imgsz(imgsz):
        _refuse(f"{option} {imgsz}: the image size must be a positive multiple of {STRIDE}")


def _command_line(params: dict) -> str:
    """The equivalent full `mjsnap train` command (every option spelled out), kept with the run for the model card."""
    import shlex

    parts = ["mjsnap", "train"]
    for key, value in params.items():
        if value is not None:
            parts += [f"--{key.replace('_', '-')}", str(value)]
    return shlex.join(parts)


def evaluate(
    model: Path = typer.Option(..., help="a model directory (meta.json + model files) or a training checkpoint .pt"),
    data: Path = typer.Option(..., help="dataset folder (its data.yaml) or datasets/*.yaml config"),
    split: str = typer.Option("val", help="which split of --data to measure on"),
    backend: str = typer.Option("auto", help="auto, openvino, onnxruntime or ultralytics"),
    conf: float = typer.Option(0.25, min=0.0, max=1.0, callback=finite,
                              help="operating confidence for tile accuracy / errors / exact match"),
    imgsz: int = typer.Option(480, help="inference size for a .pt checkpoint (a model directory has its own)"),
    limit: int = typer.Option(None, min=1, help="only the first N images of each folder"),
    json_out: Path = typer.Option(None, help="also write the report as JSON here"),
    against: Path = typer.Option(
        None, help="compare --model (the candidate) with this model (e.g. models/current) on the same images, as `mjsnap compare`"
    ),
    plot: Path = typer.Option(None, help="with --against: write the comparison plot (PNG) here"),
) -> None:
    """mAP50, mAP50-95, per-class recall, top confusions, tile accuracy and image exact-match on labelled images."""
    from vision import evaluate as ev
    from vision.train import WORK_DIR

    if against is not None:
        from mjsnap.commands.retrain import run_comparison

        run_comparison(model, data, against, split=split, conf=conf, backend=backend, limit=limit, plot=plot,
                       json_out=json_out)
        return
    if plot is not None:
        raise typer.BadParameter("--plot draws a comparison: give --against MODEL too", param_hint="--plot")

    from vision.compare import resolve_data

    require_output_file("--json-out", json_out)
    if not model.is_dir():
        _check_imgsz("--imgsz", imgsz)
    try:
        images = ev.labelled_images(resolve_data(data), split, limit)  # first: it is quick to check
        model_dir = model if model.is_dir() else ev.checkpoint_model_dir(model, imgsz, WORK_DIR / "eval_models")
        predictor, chosen = ev.detector_predictor(model_dir, backend)
    except (ValueError, FileNotFoundError) as exc:  # as compare reports them (a missing model included)
        _refuse(str(exc))
    report = ev.evaluate(predictor, images, conf, f"{model} ({chosen})", f"{data}:{split}")
    typer.echo(report.summary())
    for row in report.per_class:
        typer.echo(f"  {row.name:>6}  tiles {row.true_tiles:5d}  AP50 {row.ap50:.3f}  recall {row.recall:.3f}")
    confusions = ", ".join(f"{c.true}->{c.predicted}: {c.count}" for c in report.top_confusions)
    typer.echo(f"top confusions (true->predicted: count): {confusions or 'none'}")
    if json_out is not None:
        json_out.parent.mkdir(parents=True, exist_ok=True)
        json_out.write_text(report.model_dump_json(indent=1) + "\n")


def export(
    weights: Path = typer.Option(..., help="training checkpoint, e.g. work/runs/NAME/weights/best.pt"),
    out: Path = typer.Option(None, help="model directory to write (default models/current)"),
    imgsz: int = typer.Option(480, help="the size the model was trained at"),
    version: str = typer.Option(..., help="model version recorded in meta.json"),
    train_command: str = typer.Option(..., help="the exact command(s) that produced the weights"),
    data: str = typer.Option(..., help="what it was trained on (recorded in meta.json)"),
    metrics_json: list[Path] = typer.Option(None, help="eval reports (mjsnap eval --json-out) to record in meta.json"),
) -> None:
    """Write model.pt, model.onnx, model_openvino/ and meta.json (offline export)."""
    from mjsnap import jsontext
    from mjsnap.paths import MODELS_DIR
    from vision.export import export_model_dir
    from vision.registry import HEADLINE, NAME_FIGURES

    out = out or MODELS_DIR / "current"
    require_output_dir("--out", out)
    _check_imgsz("--imgsz", imgsz)
    metrics = {}
    for path in metrics_json or []:
        try:
            report = jsontext.loads(path.read_text(encoding="utf-8"))
            metrics[report["data"]] = {k: report[k] for k in HEADLINE if k in report or k not in NAME_FIGURES}
        except OSError as exc:
            _refuse(f"--metrics-json {path}: {exc.strerror}")
        except (ValueError, KeyError, TypeError):  # not JSON, or JSON of something else
            _refuse(f"--metrics-json {path} is not an eval report (mjsnap eval --json-out)")
    try:
        folder = export_model_dir(weights, out, imgsz=imgsz, version=version, train_command=train_command, data=data,
                                  metrics=metrics)
    except (ValueError, FileNotFoundError) as exc:  # no checkpoint, or one of another design: nothing is written
        _refuse(f"--weights {exc}")
    typer.echo(f"model directory: {folder}")


def register(app: typer.Typer) -> None:
    app.command("train")(train)
    app.command("eval")(evaluate)
    app.command("export")(export)
