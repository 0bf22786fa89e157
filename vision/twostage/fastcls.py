"""A lean training loop for the crop classifier (yolo11n-cls), much cheaper per CPU-second than ultralytics' own.

Measured here: ultralytics' classify trainer (per-crop PIL decoding and RandAugment, workers=0) ran at ~15 crops/s
on this busy 2-core machine, too slow for an epoch in the time there was. This loop holds every crop in memory as
one uint8 tensor and augments whole batches with tensor operations (small affine warps, brightness / contrast /
colour jitter, grey), then saves an ultralytics-format checkpoint that vision.twostage.export ships as usual.
No mirroring (mirrored glyphs are not tiles); 180-degree turns are already in the crops.

The same loop runs on a GPU (`device="cuda"`): the crops then live on the GPU and are augmented there, in bfloat16
autocast. The random draws stay on the CPU generator, so a seed means the same augmentations on either device.
"""

from __future__ import annotations

import io
import json
import math
import os
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timezone
from pathlib import Path

import numpy as np

from mjsnap.labels import write_atomic
from scoring.tiles import CLASS_NAMES
from vision.twostage.crops import SOURCES_FILE, class_folder, class_id_of_folder

IMAGE_SUFFIXES = {".png", ".jpg", ".jpeg"}


def load_split(folder: Path, limit_per_class: int | None = None) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """(N, H, W, 3) uint8 crops, (N,) class ids and the file names of one split (NN_name class folders)."""
    paths, labels = [], []
    for class_dir in sorted(p for p in Path(folder).iterdir() if p.is_dir()):
        class_id = class_id_of_folder(class_dir.name)
        files = sorted(p for p in class_dir.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)[:limit_per_class]
        paths += files
        labels += [class_id] * len(files)
    if not paths:
        raise FileNotFoundError(f"{folder} holds no crops")
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:  # OpenCV decodes outside the GIL
        images = list(pool.map(_read_rgb, paths, chunksize=256))
    return np.stack(images), np.array(labels, np.int64), [p.name for p in paths]


def _read_rgb(path: Path) -> np.ndarray:
    import cv2

    bgr = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if bgr is None:
        raise ValueError(f"{path} is not a readable image")
    return bgr[:, :, ::-1]


def _uniform(shape, generator, device):
    """Uniform draws in [-1, 1) from the CPU generator, moved to `device` (the same draws on every device)."""
    import torch

    return (torch.rand(shape, generator=generator) * 2 - 1).to(device)


def _between(bounds: tuple[float, float], shape, generator):
    """Uniform draws in [low, high) of `shape`, on the CPU (the generator's device)."""
    import torch

    low, high = bounds
    return low + (high - low) * torch.rand(shape, generator=generator)


def augment(batch, generator, labels=None, warp: float = 0.0):
    """Per-sample random affine (rotation +-12 deg, scale 0.88-1.12, shift +-7 %), colour jitter and some grey
    (GREY_SHARE, never for the classes of COLOUR_IS_CLASS when `labels` (N,) are given); FACE_ZOOM_SHARE of the
    crops zoomed in further. `warp` > 0 adds a smooth random bend (see `_bend`) of that standard deviation, in half
    crop widths."""
    import torch
    import torch.nn.functional as F

    n, device = batch.shape[0], batch.device
    angle = _uniform(n, generator, device) * math.radians(12)
    scale = 1 + _uniform(n, generator, device) * 0.12
    shift = _uniform((n, 2), generator, device) * 0.14
    zoomed = torch.rand(n, generator=generator) < FACE_ZOOM_SHARE  # drawn whatever the share: same draws after it
    zoom = _between(FACE_ZOOM, n, generator)
    scale = scale * torch.where(zoomed, zoom, torch.ones(n)).to(device)
    cos, sin = torch.cos(angle) / scale, torch.sin(angle) / scale
    theta = torch.stack([torch.stack([cos, -sin, shift[:, 0]], 1), torch.stack([sin, cos, shift[:, 1]], 1)], 1)
    grid = F.affine_grid(theta, batch.shape, align_corners=False)
    if warp > 0:
        grid = grid + _bend(n, batch.shape[2], batch.shape[3], warp, generator).to(device)
    out = F.grid_sample(batch, grid, mode="bilinear", padding_mode="border", align_corners=False)
    brightness = 1 + _uniform((n, 1, 1, 1), generator, device) * 0.35
    contrast = 1 + _uniform((n, 1, 1, 1), generator, device) * 0.35
    colour = 1 + _uniform((n, 3, 1, 1), generator, device) * 0.12
    mean = out.mean(dim=(1, 2, 3), keepdim=True)
    out = ((out - mean) * contrast + mean) * brightness * colour
    grey = torch.rand(n, generator=generator) < GREY_SHARE
    if labels is not None:
        grey &= ~torch.isin(torch.as_tensor(labels).cpu(), torch.tensor(COLOUR_IS_CLASS))
    grey = grey.to(device)
    out[grey] = out[grey].mean(dim=1, keepdim=True).expand(-1, 3, -1, -1)
    return out.clamp_(0, 1)


def augment_style(batch, generator, labels=None):
    """`augment`, then what changes between tile sets rather than between photos of one set: ink printed in other
    colours (a random colour mix of the ink around the face colour; sometimes all channels swapped), softer or
    coarser print (blur, or a downscale and back up), and part of the face hidden by glare or a finger (a grey
    patch). Shape has to carry the class."""
    import torch
    import torch.nn.functional as F

    out = augment(batch, generator, labels)
    n, _, h, w = out.shape
    device = out.device
    mixed = (torch.rand(n, generator=generator) < 0.5).to(device)
    if mixed.any():
        count = int(mixed.sum())
        mix = torch.eye(3) * (0.8 + 0.25 * torch.rand(count, 1, 1, generator=generator))
        mix = (mix + torch.randn(count, 3, 3, generator=generator) * 0.18).to(device)
        chosen = out[mixed]
        face = _face_colour(chosen)  # the mix moves the ink away from the face colour, which stays: a blank 白
        out[mixed] = face + torch.einsum("nij,njhw->nihw", mix, chosen - face)  # must not turn into a coloured back
    swapped = (torch.rand(n, generator=generator) < 0.15).to(device)
    if swapped.any():
        out[swapped] = out[swapped][:, torch.randperm(3, generator=generator).to(device)]
    soft = (torch.rand(n, generator=generator) < 0.25).to(device)
    if soft.any():
        kernel = torch.tensor([1.0, 2.0, 1.0], device=device)
        kernel = (kernel[:, None] * kernel[None, :] / 16).expand(3, 1, 3, 3)
        out[soft] = F.conv2d(F.pad(out[soft], (1, 1, 1, 1), mode="replicate"), kernel, groups=3)
    coarse = (torch.rand(n, generator=generator) < 0.2).to(device)
    if coarse.any():
        small = F.interpolate(out[coarse], scale_factor=0.5, mode="area")
        out[coarse] = F.interpolate(small, size=(h, w), mode="bilinear", align_corners=False)
    hidden = torch.nonzero(torch.rand(n, generator=generator) < 0.2).flatten()
    for i in hidden.tolist():
        ph, pw = int(h * (0.15 + 0.2 * torch.rand(1, generator=generator))), int(w * (0.15 + 0.2 * torch.rand(1, generator=generator)))
        y, x = int(torch.randint(0, h - ph + 1, (1,), generator=generator)), int(torch.randint(0, w - pw + 1, (1,), generator=generator))
        out[i, :, y : y + ph, x : x + pw] = float(torch.rand(1, generator=generator))
    return out.clamp_(0, 1)


def augment_warp(batch, generator, labels=None):
    """`augment` with a smooth random bend of the whole crop: strokes a few pixels longer, shorter or curved, as the
    same character is brushed differently by each maker's calligraphy (real 萬, 西 and 北 are rarely a font's)."""
    return augment(batch, generator, labels, warp=WARP_STD)


GREY_SHARE = 0.15  # crops turned grey: a tile set's colours are not its classes...
COLOUR_IS_CLASS = (CLASS_NAMES.index("back"),)  # ...but a face-down tile's are: grey, a pale back is a blank 白
FACE_ZOOM_SHARE = 0.4  # crops zoomed in by FACE_ZOOM as well: the tile's edge leaves the crop, as
# a box around the face's art alone cuts it (some real labels, and detectors trained on them); face_zoom.md,
# face_zoom_share.md (0.2 -> 0.4 better), face_zoom_more.md (0.6 worse on whole photos)
FACE_ZOOM = (1.15, 1.45)
WARP_STD = 0.06  # in half crop widths: about 2 px at 64 px, at most about 6
WARP_KNOTS = 4  # a 4 x 4 lattice of random moves, smoothly interpolated: bends strokes, keeps their topology


def _bend(n: int, h: int, w: int, std: float, generator):
    """(n, h, w, 2) smooth random displacement for a sampling grid in [-1, 1] coordinates."""
    import torch
    import torch.nn.functional as F

    knots = torch.randn(n, 2, WARP_KNOTS, WARP_KNOTS, generator=generator) * std
    return F.interpolate(knots, size=(h, w), mode="bicubic", align_corners=True).permute(0, 2, 3, 1)


def _face_colour(batch):
    """(N, 3, 1, 1) median colour of the middle of each crop: mostly tile face, since the ink covers less of it
    (the crop's edge holds the table: vision.twostage.crops.MARGIN and the box jitter)."""
    h, w = batch.shape[2:]
    middle = batch[:, :, int(h * 0.15) : int(h * 0.85), int(w * 0.15) : int(w * 0.85)]
    return middle.flatten(2).median(dim=2).values[:, :, None, None]


BLUR_SHARE = 0.3  # crops blurred as a photo taken with a moving phone or out of focus
SMEAR = (0.03, 0.12)  # a moving phone's straight smear, any direction, in crop widths: 3-12 px at 96 (a 9 px smear
# of a 640 px photo is 9-17 px on a 96 px crop of its tiles, benchmarks/photo_conditions.py's motion_blur; 16 px
# across the strokes leaves no 三 to read)
DEFOCUS = (0.008, 0.02)  # out of focus: a Gaussian's sigma, in crop widths (0.8-1.9 px at 96)
DEFOCUS_SHARE = 0.35  # of the blurred crops; the others are smeared


def augment_blur(batch, generator, labels=None):
    """`augment`, then BLUR_SHARE of the crops blurred as a phone photo of a dim room is: smeared in a straight
    line (the phone moved while the shutter was open; SMEAR) or out of focus (DEFOCUS). A blurred 八萬 must not
    become 九萬: the numeral's shape, not its sharp edges, has to carry the class."""
    import torch
    import torch.nn.functional as F

    out = augment(batch, generator, labels)
    n, _, h, w = out.shape
    blurred = torch.nonzero(torch.rand(n, generator=generator) < BLUR_SHARE).flatten()
    defocus = torch.rand(n, generator=generator) < DEFOCUS_SHARE
    angle = torch.rand(n, generator=generator) * math.pi
    smear = _between(SMEAR, n, generator) * w
    sigma = _between(DEFOCUS, n, generator) * w
    if not len(blurred):
        return out
    kernels = blur_kernels(angle[blurred], smear[blurred], sigma[blurred], defocus[blurred]).to(out.device)
    radius = kernels.shape[-1] // 2
    chosen = F.pad(out[blurred], (radius,) * 4, mode="replicate")
    m = len(blurred)  # one group per crop and channel: each crop its own kernel
    smeared = F.conv2d(chosen.reshape(1, m * 3, *chosen.shape[2:]), kernels.repeat_interleave(3, dim=0), groups=m * 3)
    out[blurred] = smeared.reshape(m, 3, h, w)
    return out.clamp_(0, 1)


def blur_kernels(angle, length, sigma, defocus):
    """(n, 1, k, k) normalised kernels: a line of ``length`` px at ``angle`` (radians), one pixel wide with soft
    edges, or where ``defocus``, a Gaussian of ``sigma`` px."""
    import torch

    radius = int(math.ceil(max(float(length.max()) / 2, 3 * float(sigma.max()), 1.0)))
    steps = torch.arange(-radius, radius + 1, dtype=torch.float32)
    y, x = torch.meshgrid(steps, steps, indexing="ij")
    dx, dy = torch.cos(angle)[:, None, None], torch.sin(angle)[:, None, None]
    along = (x * dx + y * dy).clamp(-length[:, None, None] / 2, length[:, None, None] / 2)
    apart = torch.hypot(x - along * dx, y - along * dy)  # each kernel pixel's distance from the line segment
    line = (1 - apart).clamp(min=0)
    gauss = torch.exp(-(x**2 + y**2) / (2 * sigma[:, None, None] ** 2))
    kernels = torch.where(defocus[:, None, None], gauss, line)
    return (kernels / kernels.sum(dim=(1, 2), keepdim=True))[:, None]


LOW_LIGHT_SHARE = 0.25  # crops darkened as a phone photo of a dim room is
LOW_LIGHT_GAIN = (0.35, 0.8)  # exposure left after the phone's own lift
LOW_LIGHT_GAMMA = (1.0, 1.8)  # the lift darkens the mid tones more than the highlights
LOW_LIGHT_NOISE = (0.005, 0.03)  # sensor noise's sigma, in full scale (1-8 of 255)


def augment_blur_dim(batch, generator, labels=None):
    """`augment_blur`, then LOW_LIGHT_SHARE of the crops darkened (LOW_LIGHT_GAIN, LOW_LIGHT_GAMMA) with sensor
    noise (LOW_LIGHT_NOISE), each pixel and channel its own. Blurred crops alone taught candidate 0.21.0's second
    classifier that a dark, flat, noisy face is a face-down tile: in a dim room, beside 0.18.9's first classifier,
    it read blank 白 as `back` 116 times against 23 (candidate_0.22.0). A 白 in low light must stay 白."""
    import torch

    out = augment_blur(batch, generator, labels)
    n = out.shape[0]
    dimmed = torch.nonzero(torch.rand(n, generator=generator) < LOW_LIGHT_SHARE).flatten()
    gain, gamma, sigma = (_between(bounds, (n, 1, 1, 1), generator)
                          for bounds in (LOW_LIGHT_GAIN, LOW_LIGHT_GAMMA, LOW_LIGHT_NOISE))
    if not len(dimmed):
        return out
    noise = torch.randn(len(dimmed), *out.shape[1:], generator=generator).to(out.device)
    gain, gamma, sigma = (values[dimmed].to(out.device) for values in (gain, gamma, sigma))
    out[dimmed] = out[dimmed].pow(gamma) * gain + noise * sigma
    return out.clamp_(0, 1)


AUGMENTATIONS = {"photo": augment, "style": augment_style, "warp": augment_warp, "blur": augment_blur,
                 "blur_dim": augment_blur_dim}


def to_float(images: np.ndarray, device: str = "cpu"):
    import torch

    return torch.from_numpy(images).to(device).permute(0, 3, 1, 2).float().div_(255)


SCALES = ("n", "s")  # yolo11n-cls (shipped) or yolo11s-cls (about 3x the multiply-adds per crop)


def build_model(pretrained: Path | None, scale: str = "n"):
    """yolo11{scale}-cls for the 36 crop classes; layers whose names and shapes match are copied from `pretrained`
    (for yolo11n: the backbone layers shared with a yolo11n detector)."""
    import torch
    from ultralytics.nn.tasks import ClassificationModel

    if scale not in SCALES:
        raise ValueError(f"classifier scale {scale!r} is not one of {', '.join(SCALES)}")
    model = ClassificationModel(f"yolo11{scale}-cls.yaml", nc=len(CLASS_NAMES), verbose=False)
    model.names = {i: class_folder(i) for i in range(len(CLASS_NAMES))}
    transferred = 0
    if pretrained is not None:
        source = torch.load(str(pretrained), map_location="cpu", weights_only=False)["model"].float().state_dict()
        target = model.state_dict()
        matching = {k: v for k, v in source.items() if k in target and v.shape == target[k].shape}
        model.load_state_dict(matching, strict=False)
        transferred = len(matching)
    return model, transferred


def predict_classes(model, images: np.ndarray, batch: int = 512, device: str = "cpu") -> np.ndarray:
    """(N,) best class of each (N, H, W, 3) uint8 crop."""
    import torch

    model.eval()
    best = []
    with torch.inference_mode():
        for start in range(0, len(images), batch):
            out = model(to_float(np.ascontiguousarray(images[start : start + batch]), device))
            probs = out[0] if isinstance(out, (list, tuple)) else out
            best.append(probs.argmax(1).cpu().numpy())
    return np.concatenate(best) if best else np.zeros(0, np.int64)


def accuracy(model, images: np.ndarray, labels: np.ndarray, batch: int = 512, device: str = "cpu") -> float:
    return float((predict_classes(model, images, batch, device) == labels).sum()) / max(len(images), 1)


def schedule_steps(planned: int | None, steps_per_epoch: int, max_epochs: int) -> int:
    """Steps the learning-rate schedule spans: those the wall-time budget allows (`planned`, once measured) or
    those of max_epochs, whichever is fewer, so the rate has come down when training stops."""
    return min(planned or steps_per_epoch * max_epochs, steps_per_epoch * max_epochs)


def cosine_lr(base: float, step: int, total: int, warmup: int = 30) -> float:
    """Linear warm-up over the first `warmup` steps, then a cosine from `base` down to 2 % of it at step `total`."""
    warm = min(1.0, (step + 1) / warmup)
    return base * warm * (0.02 + 0.98 * 0.5 * (1 + math.cos(math.pi * min(step / total, 1.0))))


def save_checkpoint(model, path: Path, epoch: int, metrics: dict, imgsz: int) -> None:
    import copy

    import torch
    import ultralytics

    path.parent.mkdir(parents=True, exist_ok=True)
    model_copy = copy.deepcopy(model).cpu().eval()  # loads on a machine without the GPU it was trained on
    model_copy.args = {"task": "classify", "imgsz": imgsz}
    buffer = io.BytesIO()
    torch.save({"model": model_copy, "epoch": epoch, "train_args": {"task": "classify"}, "train_metrics": metrics,
                "date": datetime.now(timezone.utc).isoformat(), "version": ultralytics.__version__}, buffer)
    write_atomic(path, buffer.getvalue())  # a kill while saving leaves the last whole checkpoint


def train_fast_classifier(
    crops: Path,
    out: Path,
    *,
    minutes: float,
    max_epochs: int = 30,
    batch: int = 128,
    lr: float = 0.002,
    pretrained: Path | None = None,
    val_name_prefix: str | None = None,
    threads: int = 2,
    seed: int = 0,
    augmentation: str = "photo",
    scale: str = "n",
    device: str = "cpu",
) -> Path:
    """Train until `minutes` of wall time or max_epochs are spent, whichever comes first (the cosine learning rate
    is planned over the steps the first limit allows).

    Writes out/weights/best.pt (best val accuracy) and last.pt, and out/progress.jsonl. `val_name_prefix` limits
    the reported val accuracy to crops whose file name starts with it (e.g. the cmd val source). `augmentation`
    names one of AUGMENTATIONS, `scale` one of SCALES. On a CUDA `device` the crops are held and augmented on the
    GPU and the network runs in bfloat16 autocast."""
    import torch
    import torch.nn.functional as F

    if augmentation not in AUGMENTATIONS:
        raise ValueError(f"augmentation {augmentation!r} is not one of {', '.join(AUGMENTATIONS)}")
    augment_batch = AUGMENTATIONS[augmentation]
    if str(device).startswith("cuda") and not torch.cuda.is_available():
        raise ValueError(f"device {device!r} asked for, but torch sees no CUDA GPU here")
    torch.set_num_threads(threads)
    torch.manual_seed(seed)
    generator = torch.Generator().manual_seed(seed)
    started = time.time()
    val_x, val_y, val_names = load_split(Path(crops) / "val")
    if val_name_prefix is not None:
        keep = np.array([n.startswith(val_name_prefix) for n in val_names])
        if not keep.any():
            # source numbers follow the order of the crops command's folders, so a prefix goes stale when they change
            present = sorted({n.split("_", 1)[0] + "_" for n in val_names})
            raise ValueError(f"no val crop name starts with {val_name_prefix!r}; the val crops start with "
                             f"{', '.join(present)} (see {Path(crops) / SOURCES_FILE})")
        val_x, val_y = val_x[keep], val_y[keep]
    train_x, train_y, _ = load_split(Path(crops) / "train")
    model, transferred = build_model(pretrained, scale)
    model.to(device)
    train_images = torch.from_numpy(train_x).to(device)  # on a GPU, the crops cross the bus once
    autocast = torch.autocast("cuda", dtype=torch.bfloat16, enabled=str(device).startswith("cuda"))
    optimizer = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=5e-4)
    out = Path(out)
    (out / "weights").mkdir(parents=True, exist_ok=True)
    progress = out / "progress.jsonl"
    log = {"loaded_s": round(time.time() - started), "train": len(train_y), "val": len(val_y), "transferred": transferred,
           "scale": scale, "device": str(device)}
    print(f"[two-stage classifier] {json.dumps(log)}", flush=True)
    steps_per_epoch = math.ceil(len(train_y) / batch)
    budget_s, step, best = minutes * 60, 0, -1.0
    planned = None
    for epoch in range(1, max_epochs + 1):
        model.train()
        order = torch.randperm(len(train_y), generator=generator)
        epoch_start, total_loss = time.time(), torch.zeros((), device=device)  # summed on the device: no sync per step
        for i in range(steps_per_epoch):
            index = order[i * batch : (i + 1) * batch]
            labels = torch.from_numpy(train_y[index.numpy()])
            x = augment_batch(train_images[index.to(device)].permute(0, 3, 1, 2).float().div_(255), generator, labels)
            y = labels.to(device)
            if planned is None and step == 20:  # plan the cosine schedule from the measured step time
                per_step = (time.time() - epoch_start) / 20
                planned = max(int((budget_s - (time.time() - started)) / per_step), 40) + step
            for group in optimizer.param_groups:
                group["lr"] = cosine_lr(lr, step, schedule_steps(planned, steps_per_epoch, max_epochs))
            with autocast:
                loss = F.cross_entropy(model(x).float(), y, label_smoothing=0.05)
            optimizer.zero_grad(set_to_none=True)
            loss.backward()
            optimizer.step()
            total_loss += loss.detach()
            step += 1
            if time.time() - started > budget_s:
                break
        top1 = accuracy(model, val_x, val_y, device=device)
        record = {"epoch": epoch, "steps": step, "loss": round(float(total_loss) / max(i + 1, 1), 4), "val_top1": round(top1, 4),
                  "elapsed_s": round(time.time() - started), "crops_per_s": round((i + 1) * batch / (time.time() - epoch_start), 1),
                  "time": time.strftime("%H:%M:%S", time.gmtime())}
        print(f"[two-stage classifier] {json.dumps(record)}", flush=True)
        with progress.open("a") as fh:
            fh.write(json.dumps(record) + "\n")
        save_checkpoint(model, out / "weights" / "last.pt", epoch, record, train_x.shape[1])
        if top1 > best:
            best = top1
            save_checkpoint(model, out / "weights" / "best.pt", epoch, record, train_x.shape[1])
        if time.time() - started > budget_s:
            break
    return out
