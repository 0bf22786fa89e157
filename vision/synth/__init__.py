"""Synthetic photos of mahjong hands for training and testing the detector and the normalizer.

`scene.make_sample(seed, index)` makes one photo with its labels; `writer.write_dataset` writes a YOLO data set with
the layout ground truth (`mjsnap synth`). Faces come from drawn.py (ours) and artsets.py (../shared/tileart).
"""
