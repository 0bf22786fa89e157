"""Model versions: `models/registry.json`, promotion of a better candidate, and rollback.

``models/current/`` is always the model mjsnap runs (contracts.md). Every model that has been current is listed in
the registry with its version id, training data, command, metrics and creation time. When a model leaves
``current`` (a promotion or a rollback) its files are kept in ``models/versions/<id>/``; a copy is not made twice
(a version whose model.pt is byte-identical to a stored one points at that folder). ``models/versions/`` is not
committed (models/.gitignore): only the shipped model's files are.

Swapping a model directory in is two renames (current -> .outgoing-*, .incoming-* -> current); `recover` finishes
or undoes a swap a crash interrupted, so ``current`` is never left half-written or missing. The registry is saved
with the outgoing model's kept copy before the swap, so a crash after it never loses track of that copy. Every
change (and `recover`, which would take a running swap for an interrupted one) holds an flock on the models folder:
two promotions at once run one after the other, and one whose comparison was with a model that has meanwhile left
``current`` is refused.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field, ValidationError

from mjsnap import jsontext
from mjsnap.labels import write_atomic
from mjsnap.locks import holding_folder
from mjsnap.paths import MODELS_DIR
from vision.compare import METRICS, Comparison
from vision.twostage.backend import STAGES, ensemble_folders
from vision.detector import QUANTIZED_FOLDER
from vision.detector import read_meta as validated_meta

REGISTRY_FILE = "registry.json"
CURRENT = "current"
VERSIONS = "versions"
DEFAULT_METRIC = "map50"
ONE_STAGE = "one_stage"  # a meta.json without "design"
_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")


class RegistryError(RuntimeError):
    """A registry operation that cannot be done (nothing to roll back to, a missing version folder...)."""


class ModelVersion(BaseModel):
    id: str
    created: str
    data: Any = None
    command: str = ""
    metrics: dict[str, Any] = Field(default_factory=dict)
    path: str  # relative to the models folder: "current" or "versions/<id>"
    sha256: str  # weights_digest: of model.pt, of both stages' model.pt, or of meta.json without weights
    reads: str | None = None  # reading_digest (weights, recognizer and reading settings); None in older registries
    design: str = ONE_STAGE  # meta.json "design": one_stage (one 36-class detector) or two_stage


class Registry(BaseModel):
    current: str | None = None
    history: list[str] = Field(default_factory=list)  # ids that were current, oldest first; the last is current
    versions: list[ModelVersion] = Field(default_factory=list)

    def version(self, version_id: str) -> ModelVersion:
        for item in self.versions:
            if item.id == version_id:
                return item
        raise RegistryError(f"version {version_id!r} is not in the registry")


class Decision(BaseModel):
    accepted: bool
    metric: str
    current: float | None
    candidate: float
    reason: str


def now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def networks(model_dir: Path) -> list[Path]:
    """The weights of every network of a model directory: model.pt, or each stage's model.pt (design (b)), the
    averaged classifiers' (classifier_2/, ...) included."""
    model_dir = Path(model_dir)
    if (model_dir / "model.pt").is_file():
        return [model_dir / "model.pt"]
    folders = [model_dir / stage for stage in STAGES] + ensemble_folders(model_dir)
    return [folder / "model.pt" for folder in folders if (folder / "model.pt").is_file()]


def weights_digest(model_dir: Path) -> str:
    """sha256 of the weights (of model.pt alone for a one-stage model; meta.json when there are no weights)."""
    files = networks(model_dir) or [Path(model_dir) / "meta.json"]
    digest = hashlib.sha256()
    for path in files:
        if len(files) > 1:  # which network each part is, so two stages cannot be swapped unnoticed
            digest.update(path.relative_to(model_dir).as_posix().encode() + b"\0")
        with path.open("rb") as fh:
            for block in iter(lambda: fh.read(1 << 20), b""):
                digest.update(block)
    return digest.hexdigest()


DESCRIPTIVE_META = ("version", "created", "train_command", "data", "metrics")  # what promote rewrites


def reading_digest(model_dir: Path) -> str:
    """sha256 of all that decides how a model directory reads a photo: its networks (weights_digest), its other
    files beside them (the character recognizer in characters/) and meta.json less its descriptive fields. Equal
    weights can read differently: 0.11.0 added characters/ to 0.10.0's networks, 0.12.0 reading settings to meta."""
    return digests(model_dir)[1]


def digests(model_dir: Path) -> tuple[str, str]:
    """(weights_digest, reading_digest) of a model directory, its weights read once."""
    model_dir = Path(model_dir)
    weights = weights_digest(model_dir)
    digest = hashlib.sha256(weights.encode())
    settings = {key: value for key, value in read_meta(model_dir).items() if key not in DESCRIPTIVE_META}
    digest.update(json.dumps(settings, sort_keys=True).encode())
    # the character recognizer, and the INT8 networks of a quantized model (vision.twostage.quantize): made from
    # the same model.pt, they read as their calibration made them
    extras = [model_dir / "characters", *(folder.parent / QUANTIZED_FOLDER for folder in networks(model_dir))]
    for path in sorted(path for folder in extras if folder.is_dir() for path in folder.rglob("*")):
        if path.is_file():
            digest.update(path.relative_to(model_dir).as_posix().encode() + b"\0" + path.read_bytes())
    return weights, digest.hexdigest()


def read_meta(model_dir: Path) -> dict:
    """A model's meta.json as a dict; RegistryError names one that is not a JSON object (damaged, edited by hand)."""
    path = Path(model_dir) / "meta.json"
    try:
        meta = jsontext.loads(path.read_text(encoding="utf-8"))
    except ValueError as exc:  # not JSON (nested too deep, NaN too), or not UTF-8
        raise RegistryError(f"{path} is not JSON ({exc}); nothing was changed") from None
    if not isinstance(meta, dict):
        raise RegistryError(f"{path}: a model's meta.json is a JSON object, not {type(meta).__name__}; nothing was "
                            "changed")
    return meta


def recover(models_dir: Path) -> None:
    """Finish or undo an interrupted swap, and drop staging leftovers."""
    models_dir = Path(models_dir)
    current = models_dir / CURRENT
    outgoing = sorted(models_dir.glob(".outgoing-*"))
    if not current.exists() and outgoing:
        outgoing[-1].rename(current)  # the new one never arrived: put the old one back
        outgoing = outgoing[:-1]
    for leftover in [*outgoing, *models_dir.glob(".incoming-*")]:
        shutil.rmtree(leftover, ignore_errors=True)


@contextmanager
def locked(models_dir: Path) -> Iterator[None]:
    """Hold the models folder's lock (an flock on the folder itself, mjsnap.locks). A folder that is not there has
    nothing to guard."""
    if not Path(models_dir).is_dir():
        yield
        return
    with holding_folder(Path(models_dir)):
        yield


def load(models_dir: Path = MODELS_DIR) -> Registry:
    """The registry; when there is none yet, one that lists the model in ``current`` (from its meta.json)."""
    with locked(models_dir):
        return _load(Path(models_dir))


def refresh(models_dir: Path = MODELS_DIR) -> Registry:
    """`load`, and save what it found (a model that reached ``current`` outside the registry) in the same lock."""
    models_dir = Path(models_dir)
    with locked(models_dir):
        registry = _load(models_dir)
        path = models_dir / REGISTRY_FILE
        before = path.read_text(encoding="utf-8") if path.is_file() else None
        if registry.versions and registry.model_dump_json(indent=1) + "\n" != before:
            save(registry, models_dir)
    return registry


def _load(models_dir: Path) -> Registry:
    recover(models_dir)
    path = models_dir / REGISTRY_FILE
    try:
        registry = Registry.model_validate_json(path.read_text(encoding="utf-8")) if path.is_file() else Registry()
    except ValidationError as exc:  # damaged or edited by hand: one line, not pydantic's report
        raise RegistryError(f"{path} is not a model registry ({exc.errors()[0]['msg']}); nothing was changed") from None
    _sync_current(models_dir, registry)
    return registry


def _sync_current(models_dir: Path, registry: Registry) -> None:
    """List a model that reached ``current`` outside the registry (e.g. `mjsnap export`, or its meta.json's reading
    settings edited) as a new version."""
    current = models_dir / CURRENT
    if not (current / "meta.json").is_file():
        return
    listed = registry.version(registry.current) if registry.current else None
    if listed is not None:
        # same weights can read differently (meta's reading settings, characters/): both must match
        weights, reads = digests(current)
        if listed.sha256 == weights and listed.reads in (None, reads):
            return
        before = registry.version(registry.history[-2]) if len(registry.history) > 1 else None
        if before is not None and before.sha256 == weights and before.reads in (None, reads) and listed.path != CURRENT:
            registry.history.pop()  # a rollback whose swap was done when a crash stopped it: finish it
            registry.current = before.id
            return
    if listed is not None and listed.path == CURRENT:
        listed.path = ""  # its files were overwritten: it can no longer be rolled back to
    entry = _entry_from_meta(current, CURRENT)
    entry.id = _unique_id(registry, entry.id)
    registry.versions.append(entry)
    registry.current = entry.id
    registry.history.append(entry.id)


def save(registry: Registry, models_dir: Path = MODELS_DIR) -> Path:
    path = Path(models_dir) / REGISTRY_FILE
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, (registry.model_dump_json(indent=1) + "\n").encode("utf-8"))
    return path


def _entry_from_meta(model_dir: Path, relative: str) -> ModelVersion:
    meta = read_meta(model_dir)
    weights, reads = digests(model_dir)
    return ModelVersion(
        id=safe_version_id(str(meta.get("version") or "unversioned")),
        created=str(meta.get("created") or now()),
        data=meta.get("data"),
        command=str(meta.get("train_command") or ""),
        metrics=dict(meta.get("metrics") or {}),
        path=relative,
        sha256=weights,
        reads=reads,
        design=str(meta.get("design") or ONE_STAGE),
    )


def safe_version_id(text: str) -> str:
    cleaned = re.sub(r"[^A-Za-z0-9_.-]", "_", text).replace("..", "_").lstrip("._-")[:64]
    if not _ID.fullmatch(cleaned or ""):
        raise RegistryError(f"version id {text!r} cannot be used as a folder name")
    return cleaned


def decide(candidate: float, current: float | None, metric: str = DEFAULT_METRIC, min_gain: float = 0.0) -> Decision:
    """Accept only a candidate strictly better than the current model by more than ``min_gain`` on ``metric``."""
    if metric not in METRICS:
        raise ValueError(f"metric {metric!r} is not one of {', '.join(METRICS)}")
    if current is None:
        return Decision(accepted=True, metric=metric, current=None, candidate=candidate,
                        reason=f"there is no current model (candidate {metric} {candidate:.4f})")
    # rounded: metrics carry 4 decimals, and 0.75 - 0.70 must not come out as a gain of 0.05000000000000004
    gain = round((candidate - current) if METRICS[metric] else (current - candidate), 9)
    accepted = gain > min_gain
    word = "better" if accepted else "not better"
    return Decision(accepted=accepted, metric=metric, current=current, candidate=candidate,
                    reason=f"candidate {metric} {candidate:.4f} vs current {current:.4f}: {word} "
                           f"(gain {gain:+.4f}, needed more than {min_gain:+.4f})")


def _store(models_dir: Path, registry: Registry, entry: ModelVersion) -> None:
    """Make sure ``entry`` (now in ``current``) has its own copy under versions/, reusing one that reads the same."""
    if entry.path != CURRENT:
        return
    same_weights = [other for other in registry.versions if other is not entry and other.path != CURRENT
                    and other.sha256 == entry.sha256 and (models_dir / other.path / "meta.json").is_file()]
    if same_weights:
        reads = reading_digest(models_dir / CURRENT)
        for other in same_weights:
            if reading_digest(models_dir / other.path) == reads:
                entry.path = other.path
                return
    target = models_dir / VERSIONS / entry.id
    if target.exists():
        shutil.rmtree(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = target.with_name(f".{entry.id}.copying")
    shutil.rmtree(staging, ignore_errors=True)
    shutil.copytree(models_dir / CURRENT, staging)
    staging.rename(target)
    entry.path = f"{VERSIONS}/{entry.id}"


def _swap_in(models_dir: Path, source: Path) -> None:
    """Replace models/current by a copy of ``source``: in one step where the system can exchange two folders (a
    reader starting then finds the old model or the new, never none), else by two renames (see `recover`)."""
    stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%S%f")
    incoming = models_dir / f".incoming-{stamp}"
    shutil.copytree(source, incoming)
    current = models_dir / CURRENT
    if current.exists() and _exchange(incoming, current):
        shutil.rmtree(incoming, ignore_errors=True)  # the old model, now under the incoming name (recover drops it)
        return
    outgoing = models_dir / f".outgoing-{stamp}"
    if current.exists():
        current.rename(outgoing)
    incoming.rename(current)
    shutil.rmtree(outgoing, ignore_errors=True)


def _exchange(a: Path, b: Path) -> bool:
    """Swap two paths atomically (Linux renameat2 RENAME_EXCHANGE); False where the C library or the file system
    cannot, and the caller renames instead."""
    import ctypes
    import errno

    try:
        renameat2 = ctypes.CDLL(None, use_errno=True).renameat2
    except (AttributeError, OSError):  # not Linux, or a C library older than glibc 2.28
        return False
    at_fdcwd, rename_exchange = -100, 2
    if renameat2(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), rename_exchange) == 0:
        return True
    code = ctypes.get_errno()
    if code in (errno.ENOSYS, errno.EINVAL, errno.EOPNOTSUPP, errno.ENOTSUP):
        return False
    raise OSError(code, os.strerror(code), str(b))


def _unique_id(registry: Registry, wanted: str) -> str:
    taken = {v.id for v in registry.versions}
    candidate, n = wanted, 2
    while candidate in taken:
        candidate, n = f"{wanted}-{n}", n + 1
    return candidate


def install(
    models_dir: Path, registry: Registry, candidate_dir: Path, version_id: str, *, data: Any, command: str,
    metrics: dict[str, Any],
) -> ModelVersion:
    """Make ``candidate_dir`` the current model: keep the outgoing one, write meta.json, update the registry."""
    models_dir = Path(models_dir)
    with locked(models_dir):
        return _install(models_dir, registry, candidate_dir, version_id, data=data, command=command, metrics=metrics)


def _install(
    models_dir: Path, registry: Registry, candidate_dir: Path, version_id: str, *, data: Any, command: str,
    metrics: dict[str, Any],
) -> ModelVersion:
    seen = registry.current
    registry = _load(models_dir)  # as it is now: another promotion may have saved it since ``registry`` was read
    if registry.current != seen:
        raise RegistryError(f"the current model changed from {seen} to {registry.current} (another promotion or "
                            "rollback ran meanwhile); nothing was changed: run promote again to compare with it")
    version_id = _unique_id(registry, safe_version_id(version_id))
    if registry.current is not None:
        _store(models_dir, registry, registry.version(registry.current))
        save(registry, models_dir)  # where the outgoing model is kept, before the swap a crash may interrupt
    _swap_in(models_dir, Path(candidate_dir))
    meta = read_meta(models_dir / CURRENT)
    meta.update(version=version_id, data=data, train_command=command or meta.get("train_command", ""),
                metrics={**(meta.get("metrics") or {}), **metrics})
    write_atomic(models_dir / CURRENT / "meta.json", (json.dumps(meta, indent=1, ensure_ascii=False) + "\n").encode())
    entry = _entry_from_meta(models_dir / CURRENT, CURRENT)
    entry.id = version_id  # the unique id written to meta.json (read back, a long one would be cut to 64)
    registry.versions.append(entry)
    registry.current = version_id
    registry.history.append(version_id)
    save(registry, models_dir)
    return entry


def promote_decision(comparison: Comparison, metric: str = DEFAULT_METRIC, min_gain: float = 0.0) -> Decision:
    if metric not in METRICS:
        raise ValueError(f"metric {metric!r} is not one of {', '.join(METRICS)}")
    row = next((r for r in comparison.metrics if r.metric == metric), None)
    if row is None:
        raise ValueError(f"metric {metric!r}: a report of the comparison was written before it was measured")
    return decide(row.candidate, row.current, metric, min_gain)


def rollback(models_dir: Path = MODELS_DIR) -> ModelVersion:
    """Put the version that was current before this one back into ``current``; returns it."""
    models_dir = Path(models_dir)
    with locked(models_dir):
        return _rollback(models_dir)


def _rollback(models_dir: Path) -> ModelVersion:
    registry = _load(models_dir)
    if len(registry.history) < 2:
        raise RegistryError("there is no earlier version to roll back to")
    leaving = registry.version(registry.history[-1])
    previous = registry.version(registry.history[-2])
    source = models_dir / previous.path
    if previous.path in ("", CURRENT) or not (source / "meta.json").is_file():
        raise RegistryError(f"the files of version {previous.id} are missing ({source}); nothing was changed: put "
                            f"them back there, or install a model folder with `mjsnap promote`")
    _store(models_dir, registry, leaving)
    save(registry, models_dir)  # where the leaving model is kept, before the swap a crash may interrupt
    _swap_in(models_dir, source)
    registry.history.pop()
    registry.current = previous.id
    save(registry, models_dir)
    return previous


class PromoteResult(BaseModel):
    decision: Decision
    comparison: Comparison | None
    version: ModelVersion | None  # the new current version when accepted


HEADLINE = ("images", "true_tiles", "conf", "map50", "map50_95", "tile_accuracy", "tile_errors", "exact_match",
            "name_errors", "hands_read_right")
NAME_FIGURES = ("name_errors", "hands_read_right")  # absent from eval reports written before 2026-12-07


def _checkpoint_facts(checkpoint: Path) -> tuple[int, Any, str]:
    """imgsz, training data and command of a training checkpoint (from its run folder when it has one)."""
    from vision.train import read_checkpoint

    ckpt = read_checkpoint(checkpoint)
    args = ckpt.get("train_args") or {}
    settings_file = Path(checkpoint).parent.parent / "mjsnap_settings.json"
    settings = json.loads(settings_file.read_text()) if settings_file.is_file() else {}
    # the dataset the person named (mjsnap_settings.json), not ultralytics' resolved copy of it
    return int(args.get("imgsz", 480)), settings.get("data", args.get("data")), settings.get("command", "")


def candidate_model_dir(candidate: Path, out: Path) -> Path:
    """A model directory for ``candidate``: itself when it is one, else the exported training checkpoint."""
    candidate = Path(candidate)
    if candidate.is_dir():
        if not (candidate / "meta.json").is_file():
            raise RegistryError(f"{candidate} is a folder without meta.json: not a model directory (a training "
                                "checkpoint is RUN/weights/best.pt)")
        validated_meta(candidate)  # a damaged meta.json is named, not only json's complaint
        return candidate
    if candidate.suffix != ".pt" or not candidate.is_file():
        raise RegistryError(f"{candidate} is neither a model directory (meta.json) nor a training checkpoint .pt")
    from vision.export import export_model_dir

    imgsz, data, command = _checkpoint_facts(candidate)
    run = candidate.parent.parent.name
    version = f"{run}-{datetime.now(timezone.utc).strftime('%Y%m%d%H%M')}"
    return export_model_dir(candidate, out, imgsz=imgsz, version=version, train_command=command, data=data)


def promote(
    candidate: Path, data: Path, models_dir: Path = MODELS_DIR, *, metric: str = DEFAULT_METRIC,
    min_gain: float = 0.0, split: str = "val", conf: float = 0.25, backend: str = "auto",
    version: str | None = None, limit: int | None = None, plot_to: Path | None = None,
) -> PromoteResult:
    """Compare ``candidate`` with the current model on ``data`` and make it current only if it is better."""
    import tempfile

    from vision.compare import compare_models, measure_model, plot, resolve_data

    if metric not in METRICS:
        raise ValueError(f"metric {metric!r} is not one of {', '.join(METRICS)}")
    resolve_data(data)  # a missing --data fails before anything is made, also when there is no model to compare
    models_dir = Path(models_dir)
    models_dir.mkdir(parents=True, exist_ok=True)
    registry = load(models_dir)
    with tempfile.TemporaryDirectory(prefix="mjsnap-candidate-") as tmp:
        candidate_dir = candidate_model_dir(candidate, Path(tmp) / "candidate")
        current_dir = models_dir / CURRENT
        comparison = None
        if (current_dir / "meta.json").is_file():
            comparison = compare_models(current_dir, candidate_dir, data, split, conf, backend, limit)
            if plot_to is not None:
                plot(comparison, plot_to)
            decision = promote_decision(comparison, metric, min_gain)
            metrics = {comparison.data: {k: getattr(comparison.candidate, k) for k in HEADLINE}}
        else:  # nothing to compare with: the candidate is installed, measured on --data as a promotion records it
            measured = measure_model(candidate_dir, data, split, conf, backend, limit)
            decision = decide(float(getattr(measured, metric)), None, metric, min_gain)
            metrics = {measured.data: {k: getattr(measured, k) for k in HEADLINE}}
        if not decision.accepted:
            return PromoteResult(decision=decision, comparison=comparison, version=None)
        meta = read_meta(candidate_dir)
        entry = install(models_dir, registry, candidate_dir, version or str(meta.get("version") or "candidate"),
                        data=meta.get("data"), command=str(meta.get("train_command") or ""), metrics=metrics)
    return PromoteResult(decision=decision, comparison=comparison, version=entry)
