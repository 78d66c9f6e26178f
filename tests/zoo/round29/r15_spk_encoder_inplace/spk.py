import torch
import torch.nn as nn


class SpeakerEncoder(nn.Module):
    """Frozen speaker-embedding net used as a perceptual loss for TTS."""

    def __init__(self, n_mels=16, d=8):
        super().__init__()
        self.proj = nn.Linear(n_mels, d)
        for p in self.parameters():
            p.requires_grad_(False)

    def encode_mel(self, mel):
        # per-utterance mean normalisation, done in place on the caller's mel
        mel.sub_(mel.mean(dim=1, keepdim=True))
        return self.proj(mel).mean(dim=1)
