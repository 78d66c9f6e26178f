"""
expect: GL005 27
dynamic: confirm
source: kinds check 20, kind 1 (written for this check)

A speech encoder projects filterbank frames with a Linear layer, then runs a
Conv1d over `frames.transpose(1, 2)`; the conv saves that transposed view for
its weight gradient. SpecAugment-style noise is then added to `frames` in
place, which bumps the shared version counter, so backward raises; the assert
catches the in-place error.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)


class SpeechEncoder(nn.Module):
    def __init__(self, n_mels=16, hidden=24):
        super().__init__()
        self.proj = nn.Linear(n_mels, hidden)
        self.temporal = nn.Conv1d(hidden, hidden, kernel_size=3, padding=1)

    def forward(self, fbank):
        frames = self.proj(fbank)                      # (B, T, H)
        ctx = self.temporal(frames.transpose(1, 2))    # conv saves the view
        frames += 0.1 * torch.randn_like(frames)       # in-place edit of the base
        return ctx.mean() + frames.mean()


enc = SpeechEncoder()
fbank = torch.randn(2, 50, 16)
loss = enc(fbank)
try:
    loss.backward()
    raised = False
except RuntimeError as err:
    raised = "modified by an inplace operation" in str(err)
assert raised, "backward should fail: the conv's saved input was edited in place"
print("ok: in-place edit of a saved view's base breaks backward")
