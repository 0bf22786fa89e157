"""vision.imageio: formats, EXIF orientation, one downscale for large photos, clear errors for bad files."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from vision.imageio import WORKING_MAX_SIDE, ImageReadError, LoadedImage, from_pil, load_image, read_image

ORIENTATION_TAG = 0x0112


def upright_pattern(width: int = 60, height: int = 40) -> np.ndarray:
    """Smooth gradients plus a red top-left block: any flip or turn changes it, and lossy codecs keep it."""
    ys, xs = np.mgrid[0:height, 0:width]
    image = np.stack([xs * 255 // max(width - 1, 1), ys * 255 // max(height - 1, 1), np.full_like(xs, 90)], axis=2)
    image[: height // 4, : width // 4] = (230, 20, 20)
    return image.astype(np.uint8)


# Stored pixels for each EXIF orientation, from the EXIF definition of where row 0 / column 0 of the stored
# image belong in the upright picture (independent of Pillow's exif_transpose).
STORED_FOR_ORIENTATION = {
    1: lambda a: a,
    2: lambda a: a[:, ::-1],
    3: lambda a: a[::-1, ::-1],
    4: lambda a: a[::-1],
    5: lambda a: a.transpose(1, 0, 2),
    6: lambda a: np.rot90(a, 1),
    7: lambda a: a[::-1, ::-1].transpose(1, 0, 2),
    8: lambda a: np.rot90(a, -1),
}


def encode(pixels: np.ndarray, fmt: str, orientation: int | None = None) -> bytes:
    exif = Image.Exif()
    if orientation is not None:
        exif[ORIENTATION_TAG] = orientation
    buffer = io.BytesIO()
    extra = {"quality": 95} if fmt in ("JPEG", "WEBP", "HEIF") else {}
    Image.fromarray(np.ascontiguousarray(pixels)).save(buffer, format=fmt, exif=exif.tobytes(), **extra)
    return buffer.getvalue()


def mean_abs_diff(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.abs(a.astype(np.int16) - b.astype(np.int16)).mean())


@pytest.mark.parametrize(
    "fmt, suffix, tolerance",
    [("PNG", ".png", 0.0), ("JPEG", ".jpg", 4.0), ("WEBP", ".webp", 4.0), ("HEIF", ".heic", 6.0)],
)
def test_each_format_reads_as_rgb(tmp_path: Path, fmt: str, suffix: str, tolerance: float) -> None:
    upright = upright_pattern()
    path = tmp_path / f"photo{suffix}"
    path.write_bytes(encode(upright, fmt))
    loaded = read_image(path)
    assert loaded.pixels.shape == upright.shape and loaded.pixels.dtype == np.uint8
    assert (loaded.width, loaded.height) == (60, 40)
    assert mean_abs_diff(loaded.pixels, upright) <= tolerance


@pytest.mark.parametrize("orientation", range(1, 9))
def test_every_exif_orientation_is_applied(orientation: int) -> None:
    upright = upright_pattern()
    stored = STORED_FOR_ORIENTATION[orientation](upright)
    loaded = read_image(encode(stored, "PNG", orientation))
    assert (loaded.width, loaded.height) == (60, 40)
    np.testing.assert_array_equal(loaded.pixels, upright)


@pytest.mark.parametrize("fmt, tolerance", [("JPEG", 4.0), ("WEBP", 4.0), ("HEIF", 6.0)])
def test_rotated_photo_is_turned_upright_in_lossy_formats(fmt: str, tolerance: float) -> None:
    upright = upright_pattern(64, 48)
    loaded = read_image(encode(STORED_FOR_ORIENTATION[6](upright), fmt, 6))
    assert loaded.pixels.shape == upright.shape
    assert mean_abs_diff(loaded.pixels, upright) <= tolerance


def test_large_jpeg_is_reduced_once_and_remembers_its_size(tmp_path: Path) -> None:
    upright = np.asarray(Image.fromarray(upright_pattern(60, 40)).resize((6000, 4000), Image.Resampling.BILINEAR))
    path = tmp_path / "big.jpg"
    path.write_bytes(encode(upright, "JPEG"))
    loaded = read_image(path)
    assert (loaded.width, loaded.height) == (6000, 4000)
    assert loaded.pixels.shape == (round(4000 * WORKING_MAX_SIDE / 6000), WORKING_MAX_SIDE, 3)
    assert loaded.to_original == pytest.approx((6000 / WORKING_MAX_SIDE, 4000 / loaded.pixels.shape[0]))
    reference = np.asarray(Image.fromarray(upright).resize(loaded.pixels.shape[1::-1], Image.Resampling.BOX))
    assert mean_abs_diff(loaded.pixels, reference) <= 4.0
    assert load_image(path).shape == (4000, 6000, 3)


def test_large_rotated_jpeg_reports_the_upright_size() -> None:
    upright = np.asarray(Image.fromarray(upright_pattern(30, 40)).resize((2400, 3200), Image.Resampling.BILINEAR))
    loaded = read_image(encode(STORED_FOR_ORIENTATION[6](upright), "JPEG", 6))
    assert (loaded.width, loaded.height) == (2400, 3200)
    assert loaded.pixels.shape == (WORKING_MAX_SIDE, 1200, 3)


def test_large_png_is_reduced_too() -> None:
    loaded = read_image(encode(np.zeros((300, 5000, 3), np.uint8), "PNG"))
    assert (loaded.width, loaded.height) == (5000, 300)
    assert loaded.pixels.shape == (96, WORKING_MAX_SIDE, 3)


def test_tiny_image_is_kept_as_it_is() -> None:
    tiny = upright_pattern(3, 2)
    loaded = read_image(encode(tiny, "PNG"))
    np.testing.assert_array_equal(loaded.pixels, tiny)
    assert loaded.to_original == (1.0, 1.0)


@pytest.mark.parametrize(
    "mode, value, expected",
    [
        ("L", 77, (77, 77, 77)),
        ("RGBA", (10, 20, 30, 0), (255, 255, 255)),  # fully transparent reads as white, not black
        ("RGBA", (10, 20, 30, 255), (10, 20, 30)),
        ("LA", (40, 255), (40, 40, 40)),
    ],
)
def test_other_pixel_modes_become_rgb(mode: str, value, expected: tuple[int, int, int]) -> None:
    buffer = io.BytesIO()
    Image.new(mode, (5, 4), value).save(buffer, format="PNG")
    loaded = read_image(buffer.getvalue())
    assert loaded.pixels.shape == (4, 5, 3)
    assert tuple(loaded.pixels[0, 0]) == expected


def test_sixteen_bit_grey_is_stretched_not_clipped() -> None:
    grey = np.tile(np.linspace(1000, 3000, 8, dtype=np.uint16), (2, 1))
    buffer = io.BytesIO()
    Image.fromarray(grey).save(buffer, format="PNG")
    pixels = read_image(buffer.getvalue()).pixels
    assert pixels[0, 0, 0] == 0 and pixels[0, -1, 0] == 255


def test_pillow_image_in_memory_gets_its_exif_orientation() -> None:
    upright = upright_pattern()
    image = Image.open(io.BytesIO(encode(STORED_FOR_ORIENTATION[8](upright), "PNG", 8)))
    loaded = from_pil(image)
    np.testing.assert_array_equal(loaded.pixels, upright)


def test_array_is_taken_as_the_original() -> None:
    grey = np.full((7, 9), 5, np.uint8)
    loaded = LoadedImage.from_array(grey)
    assert loaded.pixels.shape == (7, 9, 3) and (loaded.width, loaded.height) == (9, 7)


@pytest.mark.parametrize(
    "make, message",
    [
        (lambda d: d / "missing.jpg", "no such file"),
        (lambda d: d, "is a directory"),
        (lambda d: _write(d / "notes.txt", b"a shopping list, not a photo\n"), "not a readable image"),
        (lambda d: _write(d / "empty.jpg", b""), "not a readable image"),
        (lambda d: _write(d / "cut.jpg", _half_jpeg()), "damaged or truncated"),
        (lambda d: _write(d / "head.jpg", _half_jpeg()[:300]), "damaged or truncated"),
        (lambda d: _write(d / "fake.png", b"\x89PNG\r\n\x1a\n" + b"\0" * 40), "not a readable image"),
    ],
    ids=["missing", "directory", "text", "empty", "truncated-data", "truncated-header", "bad-png"],
)
def test_bad_files_raise_a_clear_error_naming_the_file(tmp_path: Path, make, message: str) -> None:
    path = make(tmp_path)
    with pytest.raises(ImageReadError) as error:
        read_image(path)
    assert message in str(error.value)
    assert str(path) in str(error.value)


def _write(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


def _half_jpeg() -> bytes:
    data = encode(np.random.default_rng(0).integers(0, 255, (64, 64, 3), dtype=np.uint8), "JPEG")
    return data[: len(data) // 2]


@pytest.mark.parametrize("orientation", [1, 3, 6, 8])
def test_tiff_orientation_reports_the_upright_size_once(tmp_path: Path, orientation: int) -> None:
    # Pillow's TIFF reader reports some orientations' size already turned; the size must not be swapped twice
    upright = upright_pattern()
    path = tmp_path / "photo.tif"
    path.write_bytes(encode(STORED_FOR_ORIENTATION[orientation](upright), "TIFF", orientation))
    loaded = read_image(path)
    assert (loaded.width, loaded.height) == (60, 40)
    np.testing.assert_array_equal(loaded.pixels, upright)


def _exif_with_a_bad_tag(orientation: int) -> bytes:
    """EXIF whose orientation is fine but whose XResolution is stored as text: Pillow fails rewriting it."""
    import struct

    tiff = b"II*\x00" + struct.pack("<I", 8) + struct.pack("<H", 2)
    tiff += struct.pack("<HHI", ORIENTATION_TAG, 3, 1) + struct.pack("<HH", orientation, 0)
    tiff += struct.pack("<HHI", 282, 2, 4) + b"abc\x00"
    return b"Exif\x00\x00" + tiff + struct.pack("<I", 0)


def test_damaged_exif_still_turns_the_photo_upright() -> None:
    upright = upright_pattern(64, 48)
    buffer = io.BytesIO()
    Image.fromarray(np.ascontiguousarray(STORED_FOR_ORIENTATION[6](upright))).save(
        buffer, format="JPEG", quality=95, exif=_exif_with_a_bad_tag(6))
    loaded = read_image(buffer.getvalue())
    assert (loaded.width, loaded.height) == (64, 48)
    assert mean_abs_diff(loaded.pixels, upright) <= 4.0


def test_a_200_megapixel_phone_photo_is_read() -> None:
    buffer = io.BytesIO()
    Image.new("L", (16320, 12240), 128).save(buffer, format="JPEG", quality=50)  # a 200 MP phone's size
    loaded = read_image(buffer.getvalue())
    assert (loaded.width, loaded.height) == (16320, 12240)
    assert max(loaded.pixels.shape[:2]) == WORKING_MAX_SIDE


def test_a_decoder_failure_is_a_damaged_image(tmp_path: Path, monkeypatch) -> None:
    import vision.imageio as imageio

    def failing_decoder(handle):  # what the AVIF and HEIF decoders raise for a damaged file
        raise RuntimeError("Failed to decode frame 0")

    monkeypatch.setattr(imageio, "_pil_open", failing_decoder)
    path = _write(tmp_path / "photo.avif", b"\0" * 64)
    with pytest.raises(ImageReadError, match="photo.avif: damaged or truncated image"):
        read_image(path)


def test_a_folder_that_may_not_be_searched_is_permission_denied(tmp_path: Path, monkeypatch) -> None:
    def refused(self):  # as Path.exists raises for a file in a folder without search permission (tests run as root)
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(Path, "exists", refused)
    with pytest.raises(ImageReadError, match="locked/photo.jpg: permission denied"):
        read_image(tmp_path / "locked" / "photo.jpg")
