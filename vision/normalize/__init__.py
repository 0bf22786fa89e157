"""From detections to a hand: rows, groups, melds, kongs with face-down tiles and the winning tile.

``read_hand(detections, image_size, options)`` returns a ReadHand (concealed tiles without the winning tile, melds,
winning tile, every detection with its role and confidence, and warnings as data). The layout it expects is
described in docs/photo-layout.md.
"""

from vision.normalize.options import ReadOptions
from vision.normalize.reader import read_hand
from vision.normalize.result import ReadHand, ReadTile, ReadWarning

__all__ = ["ReadHand", "ReadOptions", "ReadTile", "ReadWarning", "read_hand"]
