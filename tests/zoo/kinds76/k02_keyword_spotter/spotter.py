"""Tiny keyword spotter with a learnable filterbank front end."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class KeywordSpotter(nn.Module):
    def __init__(self, n_filters=8, kernel=17, n_keywords=4):
        super().__init__()
        # learnable filterbank (a sinc-net style front end, randomly initialised)
        self.filterbank = nn.Conv1d(1, n_filters, kernel_size=kernel, padding=kernel // 2)
        self.classifier = nn.Sequential(
            nn.Linear(n_filters, 16), nn.ReLU(), nn.Linear(16, n_keywords)
        )

    def frontend(self, wave):
        with torch.no_grad():
            x = wave.unsqueeze(1)
            x = self.filterbank(x)
            energy = torch.log1p(x.pow(2).mean(dim=-1))
            return energy

    def logits(self, wave):
        return self.classifier(self.frontend(wave))

    def step_loss(self, wave, label):
        return F.cross_entropy(self.logits(wave), label)
