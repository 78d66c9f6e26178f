import torch
import torch.nn as nn


class FrozenCodec(nn.Module):
    """Pretrained waveform codec: frames -> latents -> frames. Never trained here."""

    def __init__(self, frame=32, latent=8):
        super().__init__()
        self.enc = nn.Conv1d(1, latent, frame, stride=frame)
        self.dec = nn.ConvTranspose1d(latent, 1, frame, stride=frame)
        self.requires_grad_(False)

    def encode(self, wav):
        with torch.no_grad():
            return self.enc(wav)

    def decode(self, z):
        # decoding is memory hungry, so it is run without autograd
        with torch.no_grad():
            return torch.tanh(self.dec(z))
