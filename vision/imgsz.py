"""The one rule for a network's input size, which meta.json readers and the export commands share."""

from __future__ import annotations

STRIDE = 32  # YOLO11's largest stride: an input size that is no multiple of it is padded, and boxes shift


def is_model_imgsz(value: object) -> bool:
    """A positive integer multiple of the stride (True and 1.5 are not image sizes)."""
    return isinstance(value, int) and not isinstance(value, bool) and value >= STRIDE and value % STRIDE == 0
