"""Base for piano-transcription trainers."""
import torch.nn as nn


class TranscriptionTrainer:
    def __init__(self, model: nn.Module, n_pitches: int = 88):
        self.model = model
        self.n_pitches = n_pitches
        self.history = []

    def log(self, **scalars):
        self.history.append({k: float(v.detach()) for k, v in scalars.items()})
