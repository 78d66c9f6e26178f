"""
expect: none
dynamic: dismiss
source: kinds check 28, kind 5

A speech-feature wrapper restores a pretrained 1-D conv encoder from a checkpoint,
keeps it in eval mode and returns its embeddings detached. Nothing in the wrapper is
meant to train; a separate probe is fit on the frozen features.
"""
import os
import tempfile

import torch
import torch.nn as nn

torch.manual_seed(0)


def make_encoder():
    return nn.Sequential(nn.Conv1d(1, 8, 5, stride=2), nn.GELU(),
                         nn.Conv1d(8, 16, 5, stride=2), nn.AdaptiveAvgPool1d(1), nn.Flatten())


class FrozenSpeechFeatures(nn.Module):
    def __init__(self, ckpt_path):
        super().__init__()
        self.model = make_encoder()
        self.model.load_state_dict(torch.load(ckpt_path))
        self.model.eval()

    def forward(self, wav):
        emb = self.model(wav)
        return emb.detach()


tmp = tempfile.mkdtemp()
ckpt = os.path.join(tmp, "encoder.pt")
torch.save(make_encoder().state_dict(), ckpt)

feats = FrozenSpeechFeatures(ckpt)
probe = nn.Linear(16, 3)
opt = torch.optim.SGD(probe.parameters(), lr=0.1)
wav = torch.randn(10, 1, 160)
labels = torch.randint(0, 3, (10,))
before = [p.clone() for p in feats.model.parameters()]
loss = nn.functional.cross_entropy(probe(feats(wav)), labels)
opt.zero_grad()
loss.backward()
opt.step()

assert all(p.grad is None for p in feats.model.parameters())
assert all(torch.equal(a, b) for a, b in zip(before, feats.model.parameters()))
assert probe.weight.grad.abs().sum() > 0
print("ok: frozen pretrained encoder, only the probe trains")
