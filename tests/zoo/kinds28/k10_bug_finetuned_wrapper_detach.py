"""
expect: GL001 35
dynamic: confirm
source: kinds check 28, kind 5

The same speech wrapper, now meant to be fine-tuned: the restored encoder is put in
train mode, the optimizer covers it, and a trainable projection sits on top. The
embedding is still detached before the projection, so the encoder never gets a
gradient and its weights never move.
"""
import os
import tempfile

import torch
import torch.nn as nn

torch.manual_seed(0)


def make_encoder():
    return nn.Sequential(nn.Conv1d(1, 8, 5, stride=2), nn.GELU(),
                         nn.Conv1d(8, 16, 5, stride=2), nn.AdaptiveAvgPool1d(1), nn.Flatten())


class SpeechClassifier(nn.Module):
    def __init__(self, ckpt_path, n_cls=3):
        super().__init__()
        self.model = make_encoder()
        self.model.load_state_dict(torch.load(ckpt_path))
        self.model.train()
        self.proj = nn.Linear(16, n_cls)

    def forward(self, wav):
        emb = self.model(wav)
        return self.proj(emb.detach())


tmp = tempfile.mkdtemp()
ckpt = os.path.join(tmp, "encoder.pt")
torch.save(make_encoder().state_dict(), ckpt)

clf = SpeechClassifier(ckpt)
opt = torch.optim.SGD(list(clf.model.parameters()) + list(clf.proj.parameters()), lr=0.1)
wav = torch.randn(10, 1, 160)
labels = torch.randint(0, 3, (10,))
before = [p.clone() for p in clf.model.parameters()]
loss = nn.functional.cross_entropy(clf(wav), labels)
opt.zero_grad()
loss.backward()
opt.step()

assert all(p.grad is None for p in clf.model.parameters()), "encoder should get no gradient"
assert all(torch.equal(a, b) for a, b in zip(before, clf.model.parameters()))
assert clf.proj.weight.grad.abs().sum() > 0
print("ok: fine-tuned encoder never moves because of the detach")
