"""Tile datasets for retraining: class names by name, imports and exports of labelling tools, session splits.

The dataset folder itself is `mjsnap.labels.LabelDataset` (ultralytics layout, atomic saves, contained paths);
this package brings labels in and out of it and splits it.
"""
