"""
expect: GL005 30
dynamic: confirm
source: kinds check 29, kind 2

A mel-spectrogram decoder denormalises each utterance with a learned
per-speaker scale kept in an nn.ParameterList. Because the scale needs a
gradient, `out[i] * scale` saves the row out[i], and assigning the result
back into out[i] modifies that saved row before backward runs.
"""
import torch
import torch.nn as nn


class MelDecoder(nn.Module):
    def __init__(self, d, n_mels, n_speakers):
        super().__init__()
        self.proj = nn.Linear(d, n_mels)
        self.scale = nn.ParameterList(
            [nn.Parameter(1.0 + 0.1 * torch.randn(n_mels)) for _ in range(n_speakers)]
        )
        self.shift = nn.ParameterList(
            [nn.Parameter(torch.zeros(n_mels)) for _ in range(n_speakers)]
        )

    def forward(self, h, speaker):
        out = self.proj(h)
        for i in range(out.shape[0]):
            k = int(speaker[i])
            out[i] = out[i] * self.scale[k] + self.shift[k]
        return out


torch.manual_seed(0)
model = MelDecoder(16, 8, 3)
h = torch.randn(5, 16)
speaker = torch.tensor([0, 2, 1, 2, 0])
mel = torch.randn(5, 8)

pred = model(h, speaker)
loss = nn.functional.l1_loss(pred, mel)
try:
    loss.backward()
    raise AssertionError("expected backward to fail")
except RuntimeError as e:
    msg = str(e)
assert "modified by an inplace operation" in msg, msg
print("ok:", msg.splitlines()[0][:90])
