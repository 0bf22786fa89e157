"""Session 39's sweep of valid but unusual photo files through vision.imageio and the reader (work/s39/images_sweep):
one generated hand photo saved in ~90 forms (pixel modes, 16-bit, CMYK, ICC, every EXIF orientation and invalid ones,
multi-frame, TIFF / BMP / WebP / HEIC / AVIF, tiny, panorama, 1 px high, upper-case and lying suffixes). Each test
here is a form that read wrong:

- A CMYK JPEG without Adobe's APP14 marker (plain ink, as non-Adobe encoders write it) read as a negative: Pillow
  takes every CMYK JPEG for Adobe's inverted ink, so a light photo came out all but black and no tile was found.
- A PNG cut-out whose transparency is a colour key (tRNS in an RGB, grey or 1-bit PNG, as PNG optimizers store an
  all-or-nothing alpha) kept its stored colour, black, where the same cut-out with an alpha channel reads white.

Every image is made here.
"""

from __future__ import annotations

import io
import struct

import numpy as np
import pytest
from PIL import Image, ImageChops

from mjsnap.paths import MODELS_DIR
from vision.imageio import WORKING_MAX_SIDE, from_pil, read_image, upright

ORIENTATION_TAG = 0x0112
# Stored pixels for the EXIF orientations used here: 6 is a phone held upright (stored turned a quarter).
STORED_FOR_ORIENTATION = {1: lambda a: a, 6: lambda a: np.rot90(a, 1)}

needs_model = pytest.mark.skipif(
    not (MODELS_DIR / "current" / "meta.json").is_file(), reason="no shipped model in models/current"
)


def scene(width: int = 96, height: int = 64) -> np.ndarray:
    """Gradients and a red top-left block: a flip, a turn or inverted ink all show."""
    ys, xs = np.mgrid[0:height, 0:width]
    image = np.stack([xs * 255 // (width - 1), ys * 255 // (height - 1), np.full_like(xs, 90)], axis=2)
    image[: height // 4, : width // 4] = (230, 20, 20)
    return image.astype(np.uint8)


def mean_abs_diff(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.abs(a.astype(np.int16) - b.astype(np.int16)).mean())


def _without_app14(jpeg: bytes) -> bytes:
    start = jpeg.index(b"\xff\xee")
    length = struct.unpack(">H", jpeg[start + 2 : start + 4])[0]
    return jpeg[:start] + jpeg[start + 2 + length :]


def cmyk_jpeg(rgb: np.ndarray, adobe_marker: bool, orientation: int = 1) -> bytes:
    """A CMYK JPEG of ``rgb``: with Adobe's marker and inverted ink (as Photoshop, libjpeg and Pillow write it), or
    without the marker and with plain ink (as other encoders do)."""
    cmyk = Image.fromarray(np.ascontiguousarray(STORED_FOR_ORIENTATION[orientation](rgb))).convert("CMYK")
    exif = Image.Exif()
    exif[ORIENTATION_TAG] = orientation
    buffer = io.BytesIO()
    # Pillow writes Adobe's inverted ink with the marker: an inverted image comes out as plain ink
    (cmyk if adobe_marker else ImageChops.invert(cmyk)).save(buffer, "JPEG", quality=95, exif=exif.tobytes())
    return buffer.getvalue() if adobe_marker else _without_app14(buffer.getvalue())


def colour_key_png(pixels: np.ndarray, key) -> bytes:
    buffer = io.BytesIO()
    Image.fromarray(pixels).save(buffer, "PNG", transparency=key)
    return buffer.getvalue()


# --- CMYK JPEG ink --------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("adobe_marker", [False, True], ids=["plain-ink", "adobe-inverted-ink"])
@pytest.mark.parametrize("orientation", [1, 6])
@pytest.mark.parametrize("size", [(96, 64), (2400, 1600)], ids=["small", "large-decoded-reduced"])
def test_a_cmyk_jpeg_reads_in_its_own_colours(adobe_marker: bool, orientation: int, size: tuple[int, int]) -> None:
    upright_rgb = np.asarray(Image.fromarray(scene()).resize(size, Image.Resampling.BILINEAR))
    loaded = read_image(cmyk_jpeg(upright_rgb, adobe_marker, orientation))
    assert (loaded.width, loaded.height) == size
    reference = np.asarray(Image.fromarray(upright_rgb).resize(loaded.pixels.shape[1::-1], Image.Resampling.BOX))
    assert mean_abs_diff(loaded.pixels, reference) < 6.0
    if size[0] > WORKING_MAX_SIDE:
        assert max(loaded.pixels.shape[:2]) <= WORKING_MAX_SIDE


@pytest.mark.parametrize(
    "read",
    [
        lambda image: from_pil(image).pixels,  # a Pillow image in memory (TileDetector.detect)
        lambda image: np.asarray(upright(image).convert("RGB")),  # label page, crops, evaluation, label import
    ],
    ids=["from_pil", "upright"],
)
def test_every_way_in_sees_a_plain_ink_cmyk_jpeg_as_it_is(read) -> None:
    with Image.open(io.BytesIO(cmyk_jpeg(scene(), adobe_marker=False, orientation=6))) as image:
        assert mean_abs_diff(read(image), scene()) < 6.0


# --- colour-key transparency ----------------------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("pixels", "key"),
    [
        (np.where(scene() > 128, scene(), 0).astype(np.uint8), (0, 0, 0)),  # RGB, black is transparent
        (np.where(scene()[:, :, 0] > 128, scene()[:, :, 0], 0).astype(np.uint8), 0),  # grey
        (scene()[:, :, 0] > 128, 0),  # 1-bit
    ],
    ids=["rgb", "grey", "1-bit"],
)
def test_a_colour_key_is_transparent_and_reads_white(pixels: np.ndarray, key) -> None:
    loaded = read_image(colour_key_png(pixels, key))
    keyed = (pixels == 0) if pixels.ndim == 2 else (pixels == 0).all(axis=2)
    assert keyed.any() and (~keyed).any()
    assert (loaded.pixels[keyed] == 255).all()
    opaque = np.asarray(Image.fromarray(pixels).convert("RGB"))[~keyed]
    np.testing.assert_array_equal(loaded.pixels[~keyed], opaque)


def test_a_colour_key_cut_out_reads_as_the_same_cut_out_with_alpha() -> None:
    pixels = np.where(scene() > 128, scene(), 0).astype(np.uint8)
    alpha = np.where((pixels == 0).all(axis=2), 0, 255).astype(np.uint8)
    buffer = io.BytesIO()
    Image.fromarray(np.dstack([pixels, alpha])).save(buffer, "PNG")
    np.testing.assert_array_equal(read_image(colour_key_png(pixels, (0, 0, 0))).pixels,
                                  read_image(buffer.getvalue()).pixels)


# --- the shipped reader on a generated hand photo -------------------------------------------------------------------

@pytest.fixture(scope="module")
def hand_photo() -> np.ndarray:
    from vision.synth.scene import make_sample

    return make_sample(seed=11, index=3).image  # 720 x 1280, 13 tiles in a slanted row


@pytest.fixture(scope="module")
def reader():
    from vision.detector import TileDetector

    return TileDetector(MODELS_DIR / "current")


def _cut_out(rgb: np.ndarray) -> np.ndarray:
    """Where the light tile faces are, widened: the part of the photo a cut-out keeps."""
    import cv2

    hsv = cv2.cvtColor(rgb, cv2.COLOR_RGB2HSV)
    faces = ((hsv[..., 1] < 60) & (hsv[..., 2] > 150)).astype(np.uint8)
    return cv2.dilate(faces, np.ones((25, 25), np.uint8)) > 0


def _assert_same_tiles(found, expected, tolerance_px: float) -> None:
    assert sorted(found.class_id.tolist()) == sorted(expected.class_id.tolist())
    for box, cls in zip(expected.xyxy, expected.class_id, strict=True):
        same_class = found.xyxy[found.class_id == cls]
        assert np.abs(same_class - box).max(axis=1).min() <= tolerance_px, (cls, box)


@needs_model
@pytest.mark.parametrize("orientation", [1, 6])
def test_the_reader_reads_a_plain_ink_cmyk_jpeg_as_the_rgb_jpeg(reader, hand_photo: np.ndarray,
                                                               orientation: int) -> None:
    buffer = io.BytesIO()
    Image.fromarray(hand_photo).save(buffer, "JPEG", quality=95)
    expected = reader.detect(read_image(buffer.getvalue()))
    assert len(expected.class_id) >= 13
    found = reader.detect(read_image(cmyk_jpeg(hand_photo, adobe_marker=False, orientation=orientation)))
    _assert_same_tiles(found, expected, tolerance_px=4.0)  # was: no tile at all (a black photo)


@needs_model
def test_the_reader_reads_a_colour_key_cut_out_as_the_alpha_cut_out(reader, hand_photo: np.ndarray) -> None:
    keep = _cut_out(hand_photo)
    stored = np.where(keep[..., None], hand_photo, 0).astype(np.uint8)
    with_alpha = io.BytesIO()
    Image.fromarray(np.dstack([stored, np.where(keep, 255, 0).astype(np.uint8)])).save(with_alpha, "PNG")
    expected = reader.detect(read_image(with_alpha.getvalue()))
    assert len(expected.class_id) >= 13
    found = reader.detect(read_image(colour_key_png(stored, (0, 0, 0))))
    _assert_same_tiles(found, expected, tolerance_px=0.0)  # was: read on black, one tile misread
