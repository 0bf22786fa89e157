"""Batch scoring of photo archives: `mjsnap batch` (see docs/batch.md).

discovery → runner (resume, duplicates, sidecar context) → local_engine | ray_engine (work: one photo each)
→ journal (fsynced JSON lines) → finish (CSV, summary, HTML report).
"""
