"""
expect: none
dynamic: dismiss
source: https://github.com/speechbrain/speechbrain/issues/1396

A user found that SpeechBrain's recipe encodes `self.modules.enc(feats.detach())` and asked
why the tensor is detached there; it only mattered to them because they wanted gradients
with respect to the input waveform. This program rebuilds that brain: a fixed (parameter-free)
filterbank computes features from the waveform, the features are detached before the
encoder, and an encoder plus classifier are trained. It is a look-alike: the cut sits
upstream of every trainable parameter, so the asserts show all encoder and classifier
parameters get non-zero gradients, change after the step, and the loss drops.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Fbank(nn.Module):
    def __init__(self, n_fft=32, n_mels=8):
        super().__init__()
        self.n_fft = n_fft
        self.register_buffer("mel", torch.rand(n_fft // 2 + 1, n_mels))

    def forward(self, wav):
        spec = torch.stft(wav, self.n_fft, hop_length=8, return_complex=True,
                          window=torch.hann_window(self.n_fft)).abs() ** 2
        return torch.log1p(spec.transpose(1, 2) @ self.mel)


class KeywordBrain(nn.Module):
    def __init__(self):
        super().__init__()
        self.compute_features = Fbank()
        self.enc = nn.GRU(8, 16, batch_first=True)
        self.classifier = nn.Linear(16, 3)

    def compute_forward(self, wav):
        feats = self.compute_features(wav)
        out, _ = self.enc(feats.detach())
        return self.classifier(out.mean(dim=1))


brain = KeywordBrain()
opt = torch.optim.Adam(brain.parameters(), lr=1e-2)
labels = torch.arange(8) % 3
wav = torch.randn(8, 400) * (1.0 + 2.0 * labels[:, None])
trainable = [p for p in brain.parameters() if p.requires_grad]
before = [p.detach().clone() for p in trainable]

losses = []
for _ in range(60):
    opt.zero_grad()
    loss = F.cross_entropy(brain.compute_forward(wav), labels)
    loss.backward()
    if not losses:
        assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in trainable)
    opt.step()
    losses.append(loss.item())

assert all(not torch.equal(a, b) for a, b in zip(before, trainable))
assert losses[-1] < 0.5 * losses[0], losses
print("ok: detaching the fixed features does not stop the encoder from learning")
