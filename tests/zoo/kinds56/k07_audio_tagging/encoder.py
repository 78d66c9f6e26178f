import torch
import torch.nn as nn
import torch.nn.functional as F


class WaveEncoder(nn.Module):
    """Strided 1-D conv encoder for raw waveforms."""

    def __init__(self, dim=32):
        super().__init__()
        self.frontend = nn.Sequential(
            nn.Conv1d(1, 16, 9, stride=4, padding=4), nn.GELU(),
            nn.Conv1d(16, 32, 9, stride=4, padding=4), nn.GELU(),
        )
        self.proj = nn.Linear(32, dim)

    def forward(self, wave):
        h = self.frontend(wave.unsqueeze(1))
        return self.proj(h.mean(-1))

    @torch.no_grad()
    def embed(self, wave):
        """Unit-norm clip embeddings, used to build the retrieval index."""
        return F.normalize(self(wave), dim=-1)
