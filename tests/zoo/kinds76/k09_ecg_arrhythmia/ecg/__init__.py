"""ecg: signal processing and models for single-lead ECG arrhythmia detection."""
from . import filters  # noqa: F401

__all__ = ["filters", "model", "export"]
