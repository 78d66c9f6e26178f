import torch
import torch.nn as nn


class ProsodyEncoder(nn.Module):
    """Summarises a reference mel into one prosody (style) vector."""

    def __init__(self, n_mels=20, dim=8):
        super().__init__()
        self.conv = nn.Conv1d(n_mels, dim, 3, padding=1)

    def forward(self, mel):
        return torch.tanh(self.conv(mel)).mean(dim=2)


class PitchPredictor(nn.Module):
    def __init__(self, feat_dim=16, style_dim=8):
        super().__init__()
        self.proj = nn.Conv1d(feat_dim + style_dim, 16, 3, padding=1)
        self.out = nn.Conv1d(16, 1, 1)

    def forward(self, w2v, prosody):
        # keep the pitch branch from disturbing the rest of the model
        w2v = w2v.detach()
        prosody = prosody.detach()
        style = prosody.unsqueeze(2).expand(-1, -1, w2v.size(2))
        h = torch.relu(self.proj(torch.cat([w2v, style], dim=1)))
        return self.out(h).squeeze(1)
