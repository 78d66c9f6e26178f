"""Small d-vector speaker encoder with a numpy front end (inference-style API)."""
import numpy as np
import torch
import torch.nn as nn


def numpy_log_spec(wav, n_fft=32, hop=16):
    frames = [wav[i:i + n_fft] for i in range(0, len(wav) - n_fft + 1, hop)]
    frames = np.stack(frames) * np.hanning(n_fft)
    return np.log(np.abs(np.fft.rfft(frames, axis=-1)) ** 2 + 1e-6).astype(np.float32)


def torch_log_spec(wav, n_fft=32, hop=16):
    frames = wav.unfold(-1, n_fft, hop) * torch.hann_window(n_fft, periodic=False)
    return torch.log(torch.fft.rfft(frames, dim=-1).abs() ** 2 + 1e-6)


class VoiceEncoder(nn.Module):
    def __init__(self, n_bins=17, dim=8):
        super().__init__()
        self.lstm = nn.LSTM(n_bins, 16, batch_first=True)
        self.proj = nn.Linear(16, dim)
        for p in self.parameters():
            p.requires_grad_(False)

    def forward(self, spec):
        _, (h, _) = self.lstm(spec)
        e = self.proj(h[-1])
        return e / e.norm(dim=-1, keepdim=True)

    def embed_utterance(self, wav):
        spec = numpy_log_spec(wav.detach().cpu().numpy())
        spec = torch.from_numpy(spec).unsqueeze(0)
        return self(spec)[0]

    def embed_utterance_torch(self, wav):
        return self(torch_log_spec(wav).unsqueeze(0))[0]
