"""Batched molecular geometry container (padded atoms carry atomic number 0)."""
import torch


class Geometry:
    def __init__(self, atomic_numbers, positions):
        self.atomic_numbers = atomic_numbers
        self.positions = positions

    @property
    def distances(self):
        diff = self.positions[..., :, None, :] - self.positions[..., None, :, :]
        dist = (diff.pow(2).sum(-1) + 1e-12).sqrt()
        pad = (self.atomic_numbers[..., :, None] == 0) | (self.atomic_numbers[..., None, :] == 0)
        dist[pad] = 0.0
        return dist

    @property
    def distances_cloned(self):
        diff = self.positions[..., :, None, :] - self.positions[..., None, :, :]
        dist = (diff.pow(2).sum(-1) + 1e-12).sqrt().clone()
        pad = (self.atomic_numbers[..., :, None] == 0) | (self.atomic_numbers[..., None, :] == 0)
        return dist.masked_fill(pad, 0.0)
