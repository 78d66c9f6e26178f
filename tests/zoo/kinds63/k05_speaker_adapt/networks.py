import torch
import torch.nn as nn

N_MELS = 20
D_MODEL = 48


class MelDecoder(nn.Module):
    """Text-feature -> mel-frame decoder with a per-speaker adapter layer."""

    def __init__(self, text_dim=16):
        super().__init__()
        self.prenet = nn.Sequential(nn.Linear(text_dim, D_MODEL), nn.ReLU())
        self.adapter = nn.Linear(D_MODEL, D_MODEL, bias=False)
        self.postnet = nn.Sequential(nn.Tanh(), nn.Linear(D_MODEL, N_MELS))

    def forward(self, text_feats):
        return self.postnet(self.adapter(self.prenet(text_feats)))


class SpeakerEncoder(nn.Module):
    """Reads a reference utterance and emits adapter weights for that voice."""

    def __init__(self, rank=4):
        super().__init__()
        self.rank = rank
        self.frame_net = nn.GRU(N_MELS, 32, batch_first=True)
        self.to_factors = nn.Linear(32, 2 * D_MODEL * rank)

    def forward(self, ref_mels):
        _, h = self.frame_net(ref_mels)
        u, v = self.to_factors(h[-1]).mean(0).view(2, D_MODEL, self.rank)
        return torch.eye(D_MODEL) + u @ v.t() / self.rank
