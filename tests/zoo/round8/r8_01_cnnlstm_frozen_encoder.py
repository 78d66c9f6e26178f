"""
expect: GL001 40
dynamic: confirm
source: https://github.com/pranoyr/cnn-lstm/issues/6

A CNN-LSTM clip classifier: a per-frame encoder (a backbone plus a freshly
added projection layer) feeds an LSTM. The module's forward runs the frame
encoder inside `with torch.no_grad():`, while the optimizer is built from
model.parameters() and therefore holds the encoder and its new projection.
Autograd records nothing inside the region, so the encoder outputs reach the
LSTM as constants: the encoder parameters never receive a gradient (.grad stays
None) and Adam never moves them, although the rest of the model trains.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)


class FrameEncoder(nn.Module):
    def __init__(self, in_dim=12, feat=16, emb=8):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(in_dim, feat), nn.ReLU())
        self.proj = nn.Linear(feat, emb)  # new layer that is supposed to learn

    def forward(self, frame):
        return self.proj(self.backbone(frame))


class ClipClassifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = FrameEncoder()
        self.rnn = nn.LSTM(8, 10)
        self.head = nn.Linear(10, 3)

    def forward(self, clip):  # clip: (batch, time, features)
        per_step = []
        for t in range(clip.size(1)):
            with torch.no_grad():
                emb = self.encoder(clip[:, t])
            per_step.append(emb.unsqueeze(0))
        seq = torch.cat(per_step, 0)
        out, _ = self.rnn(seq)
        return self.head(out[-1])


model = ClipClassifier()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
clips = torch.randn(4, 5, 12)
labels = torch.tensor([0, 1, 2, 1])
proj_before = model.encoder.proj.weight.detach().clone()
head_before = model.head.weight.detach().clone()
for _ in range(3):
    opt.zero_grad()
    loss = nn.functional.cross_entropy(model(clips), labels)
    loss.backward()
    opt.step()

held = {id(p) for group in opt.param_groups for p in group["params"]}
enc_params = list(model.encoder.parameters())
assert all(id(p) in held for p in enc_params), "optimizer should hold the encoder"
assert all(p.grad is None for p in enc_params), "encoder unexpectedly got gradients"
assert torch.equal(model.encoder.proj.weight, proj_before), "encoder projection moved"
assert not torch.equal(model.head.weight, head_before), "head should still train"
print("OK: encoder run under no_grad never received a gradient")
