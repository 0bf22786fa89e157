"""The retraining loop's commands: `mjsnap label import|export|split`, `mjsnap compare`, `mjsnap promote`,
`mjsnap rollback`, `mjsnap models` (docs/retrain.md)."""

from __future__ import annotations

from pathlib import Path

import typer

from mjsnap.commands.number_options import finite
from mjsnap.commands.output_paths import require_output_dir, require_output_file

label_app = typer.Typer(help="Tile label datasets: import from labelling tools, export, split by photo session.",
                        no_args_is_help=True)


@label_app.command("import")
def label_import(
    source: Path = typer.Argument(..., help="the export: a folder, a .zip, or a Label Studio .json"),
    to: Path = typer.Option(..., "--to", help="the mjsnap dataset folder to add the photos to"),
    fmt: str = typer.Option("auto", "--format", help="auto, labelstudio-json, labelstudio-yolo, cvat-yolo, roboflow-yolo"),
    images: Path = typer.Option(None, help="Label Studio JSON: the folder holding the images (found by file name)"),
    prefix: str = typer.Option("", help="prepended to every imported photo's name (e.g. 'club2_')"),
    strict: bool = typer.Option(False, help="exit 1 when a class name is unknown or an image is missing (or not "
                                            "told apart from another of its name)"),
) -> None:
    """Add an export's photos and boxes to a dataset; classes are matched by name and unknown names reported."""
    from mjsnap.dataset.importers import ImportFormatError, import_export
    from mjsnap.labels import LabelError

    require_output_dir("--to", to)
    if not source.exists():  # not "neither a folder, a .json file nor a .zip archive": it is nothing at all
        typer.echo(f"error: {source}: no such file or folder", err=True)
        raise typer.Exit(2)
    try:
        report = import_export(source, to, fmt, images, prefix)
    except (ImportFormatError, LabelError, FileNotFoundError) as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None
    typer.echo(report.summary())
    if strict and (report.unknown_classes or report.missing_images or report.ambiguous_images):
        raise typer.Exit(1)


@label_app.command("export")
def label_export(
    dataset: Path = typer.Argument(..., help="an mjsnap dataset folder"),
    out: Path = typer.Option(..., help="the file to write (.json for Label Studio, .zip for YOLO)"),
    fmt: str = typer.Option(None, "--format", show_default=False,
                            help="labelstudio-json or yolo-zip (default: yolo-zip for an --out ending in .zip, "
                            "else labelstudio-json)"),
    url_prefix: str = typer.Option("/data/local-files/?d=", help="Label Studio: prefix of the image URLs"),
    predictions: bool = typer.Option(False, help="Label Studio: write the boxes as predictions to review"),
) -> None:
    """Export a dataset as Label Studio JSON tasks or an Ultralytics YOLO zip (CVAT imports it)."""
    from mjsnap.dataset.exporters import export_labelstudio_json, export_yolo_zip, labelstudio_config_path
    from mjsnap.labels import LabelError
    from vision.imageio import ImageReadError

    if not (dataset / "data.yaml").is_file():
        typer.echo(f"error: {dataset} is not a dataset folder (no data.yaml)", err=True)
        raise typer.Exit(2)
    require_output_file("--out", out)
    if fmt is None:  # as --out's help says: a Label Studio JSON named .zip is never what was meant
        fmt = "yolo-zip" if out.suffix.lower() == ".zip" else "labelstudio-json"
    written = [("--out", out)] + ([("--out's labelling config", labelstudio_config_path(out))]
                                  if fmt == "labelstudio-json" else [])
    for option, path in written:  # e.g. --out DATASET/data.yaml: the export would replace the dataset's own file
        if _dataset_file(dataset, path):
            typer.echo(f"error: {option}: {path} is a file of the dataset {dataset} (its data.yaml, images/ or "
                       "labels/); name a file outside them", err=True)
            raise typer.Exit(2)
    try:
        if fmt == "labelstudio-json":
            require_output_file("--out's labelling config", labelstudio_config_path(out))
            count = export_labelstudio_json(dataset, out, url_prefix, predictions)
        elif fmt == "yolo-zip":
            count = export_yolo_zip(dataset, out)
        else:
            raise typer.BadParameter(f"{fmt!r} is not labelstudio-json or yolo-zip", param_hint="--format")
    except (LabelError, OSError, ImageReadError) as exc:  # a bad label file, a photo missing or not readable
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None
    typer.echo(f"{count} photos written to {out}")


def _dataset_file(dataset: Path, path: Path) -> bool:
    """Whether ``path`` is the dataset's data.yaml or lies in its images/ or labels/ folders."""
    root, resolved = dataset.resolve(), path.resolve()
    return resolved == root / "data.yaml" or any(resolved.is_relative_to(root / kind) for kind in ("images", "labels"))


@label_app.command("split")
def label_split(
    dataset: Path = typer.Argument(..., help="an mjsnap dataset folder"),
    val_fraction: float = typer.Option(0.2, min=0.0, max=0.95, callback=finite, help="share of the photos for val"),
    seed: int = typer.Option(0, help="another seed gives another (still session-clean) split"),
    max_distance: int = typer.Option(10, min=0, max=64, help="hash bits within which two photos are one session"),
    dry_run: bool = typer.Option(False, help="only say what would move"),
) -> None:
    """Re-split train/val so near-duplicate photos (one session) never sit on both sides."""
    from mjsnap.dataset.split import split_dataset
    from mjsnap.labels import LabelError
    from vision.imageio import ImageReadError

    try:
        report = split_dataset(dataset, val_fraction, seed, max_distance, dry_run)
    except (LabelError, OSError, ImageReadError) as exc:  # a photo that cannot be read: found before anything moves
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None
    verb = "would move" if dry_run else "moved"
    typer.echo(f"{report.photos} photos in {report.clusters} sessions (largest {report.largest_cluster}): "
               f"train {report.train}, val {report.val}; {verb} {len(report.moved)}")
    for name, source, target in report.moved[:50]:
        typer.echo(f"  {name}: {source} -> {target}")
    for path in report.repaired:
        typer.echo(f"  repaired an interrupted move: removed {path}")


def compare(
    candidate: Path = typer.Option(..., help="candidate model directory or training checkpoint (RUN/weights/best.pt)"),
    data: Path = typer.Option(..., help="dataset folder or datasets/*.yaml config; both models run on its split"),
    current: Path = typer.Option(None, help="the model to compare with (default models/current)"),
    split: str = typer.Option("val", help="which split of --data to measure on"),
    conf: float = typer.Option(0.25, min=0.0, max=1.0, callback=finite,
                              help="operating confidence for recall and confusions"),
    backend: str = typer.Option("auto", help="one backend both models have (auto: the fastest)"),
    limit: int = typer.Option(None, min=1, help="only the first N images of each folder"),
    plot: Path = typer.Option(None, help="write the comparison plot (PNG) here"),
    json_out: Path = typer.Option(None, help="write the comparison as JSON here"),
) -> None:
    """Candidate vs current model on the same validation data: metrics, per-class recall, confusion pairs."""
    run_comparison(candidate, data, current, split=split, conf=conf, backend=backend, limit=limit, plot=plot,
                   json_out=json_out)


def run_comparison(candidate: Path, data: Path, current: Path | None, *, split: str, conf: float, backend: str,
                   limit: int | None, plot: Path | None, json_out: Path | None) -> None:
    """`mjsnap compare`, also behind `mjsnap eval --against`: print the comparison, write the plot and JSON."""
    import tempfile

    from mjsnap.paths import MODELS_DIR
    from vision.compare import compare_models
    from vision.compare import plot as draw
    from vision.detector import ModelNotFoundError
    from vision.registry import RegistryError, candidate_model_dir

    require_output_file("--plot", plot)
    require_output_file("--json-out", json_out)
    current = current or MODELS_DIR / "current"
    if not current.is_dir():  # the detector would say "pass --model DIR", which names the wrong option here
        typer.echo(f"error: {current}: no such model directory to compare with", err=True)
        raise typer.Exit(2)
    with tempfile.TemporaryDirectory(prefix="mjsnap-candidate-") as tmp:
        try:
            candidate_dir = candidate_model_dir(candidate, Path(tmp) / "candidate")
            comparison = compare_models(current, candidate_dir, data, split, conf, backend, limit)
        except (RegistryError, ModelNotFoundError, ValueError, FileNotFoundError) as exc:  # as promote reports them
            typer.echo(f"error: {exc}", err=True)
            raise typer.Exit(2) from None
    _print_comparison(comparison)
    if plot is not None:
        typer.echo(f"plot: {draw(comparison, plot)}")
    if json_out is not None:
        json_out.parent.mkdir(parents=True, exist_ok=True)
        json_out.write_text(comparison.model_dump_json(indent=1) + "\n")


def _print_comparison(comparison) -> None:
    typer.echo(f"{comparison.data}: {comparison.images} images")
    typer.echo(comparison.table())
    changed = [c for c in comparison.per_class if c.current_recall != c.candidate_recall]
    typer.echo("per-class recall (current -> candidate):" + ("" if changed else " no change"))
    for row in changed:
        typer.echo(f"  {row.name:>6}  tiles {row.true_tiles:4d}  {row.current_recall:.3f} -> {row.candidate_recall:.3f}")
    if comparison.confusions:
        typer.echo("confusion pairs, true->predicted (current, candidate):")
        for row in comparison.confusions[:10]:
            typer.echo(f"  {row.true}->{row.predicted}: {row.current}, {row.candidate}")


def promote(
    candidate: Path = typer.Argument(..., help="a model directory or a training checkpoint (RUN/weights/best.pt)"),
    data: Path = typer.Option(..., help="validation data both models are measured on (dataset folder or config)"),
    metric: str = typer.Option("map50", help="map50, map50_95, tile_accuracy, exact_match, tile_errors, hands_read_right or name_errors"),
    min_gain: float = typer.Option(0.0, min=0.0, callback=finite,
                                   help="the candidate must beat the current model by more than this"),
    split: str = typer.Option("val", help="which split of --data to measure on"),
    conf: float = typer.Option(0.25, min=0.0, max=1.0, callback=finite,
                              help="operating confidence for the tile metrics, recall and confusions"),
    backend: str = typer.Option("auto", help="one backend both models have (auto: the fastest)"),
    version: str = typer.Option(None, help="version id of the new model (default: from its meta.json / run name)"),
    models_dir: Path = typer.Option(None, help="models folder (default models/)"),
    plot: Path = typer.Option(None, help="write the comparison plot (PNG) here"),
) -> None:
    """Make the candidate the current model only if it is better on the metric; the old one is kept for rollback.
    Exit status 1 when the candidate is refused."""
    from mjsnap.paths import MODELS_DIR
    from vision.registry import RegistryError
    from vision.registry import promote as run_promote

    _check_models_dir(models_dir)
    require_output_file("--plot", plot)
    try:
        result = run_promote(candidate, data, models_dir or MODELS_DIR, metric=metric, min_gain=min_gain, split=split,
                             conf=conf, backend=backend, version=version, plot_to=plot)
    except (RegistryError, ValueError, FileNotFoundError) as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None
    if result.comparison is not None:
        _print_comparison(result.comparison)
    if not result.decision.accepted:
        typer.echo(f"NOT promoted: {result.decision.reason}")
        raise typer.Exit(1)
    typer.echo(f"promoted {result.version.id}: {result.decision.reason}")


def rollback(models_dir: Path = typer.Option(None, help="models folder (default models/)")) -> None:
    """Put back the model that was current before the last promotion."""
    from mjsnap.paths import MODELS_DIR
    from vision.registry import RegistryError
    from vision.registry import rollback as run_rollback

    _check_models_dir(models_dir)
    try:
        version = run_rollback(models_dir or MODELS_DIR)
    except RegistryError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(1) from None
    typer.echo(f"current model is now {version.id}")


def models(models_dir: Path = typer.Option(None, help="models folder (default models/)")) -> None:
    """List the model versions of models/registry.json (recording the current model there if it is not yet)."""
    from mjsnap.paths import MODELS_DIR
    from vision.registry import RegistryError, refresh

    _check_models_dir(models_dir)
    folder = models_dir or MODELS_DIR
    try:
        registry = refresh(folder)  # loaded and saved under the registry's lock: a promotion meanwhile is kept
    except RegistryError as exc:  # a damaged registry.json
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None
    if not registry.versions:
        typer.echo(f"no models in {folder}")
    for item in registry.versions:
        mark = "*" if item.id == registry.current else " "
        scores = ", ".join(f"{k}: mAP50 {v.get('map50')}" for k, v in item.metrics.items() if isinstance(v, dict))
        typer.echo(f"{mark} {item.id:<28} {item.design:<9}  {item.created}  {_location(folder, item, registry)}  {scores}")


def _location(folder: Path, item, registry) -> str:
    """Where a version's files are: ``current`` for the current one (and its kept copy, after a rollback), its
    folder under versions/, or that folder marked gone when someone deleted it (rollback to it would refuse)."""
    from vision.registry import CURRENT

    kept = item.path if item.path and (folder / item.path / "meta.json").is_file() else None
    if item.id == registry.current:
        return CURRENT if kept in (None, CURRENT) else f"{CURRENT} (kept in {kept})"
    return kept or f"{item.path or '?'} (files gone)"


def _check_models_dir(models_dir: Path | None) -> None:
    """A --models-dir that is not there is a typo, not an empty registry (into which promote would install the
    candidate without a model to compare it with)."""
    if models_dir is not None and not models_dir.is_dir():
        typer.echo(f"error: --models-dir {models_dir}: no such folder", err=True)
        raise typer.Exit(2)


def register(app: typer.Typer) -> None:
    app.add_typer(label_app, name="label")
    app.command("compare")(compare)
    app.command("promote")(promote)
    app.command("rollback")(rollback)
    app.command("models")(models)
