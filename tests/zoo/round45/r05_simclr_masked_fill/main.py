"""expect: none
dynamic: dismiss
source: https://github.com/bibinsees/thesis/blob/HEAD/Source_Code/SimCLR_base_models/SimLoss.py

A SimCLR trainer encodes two noisy views of each sample and computes the NT-Xent loss in a separate
loss module that masks each sample's self-similarity with an in-place masked_fill_ on the cosine
similarity matrix before dividing by the temperature. The in-place write looks like an edit of a tensor
in the graph, but cosine_similarity's final reduction does not save its output for backward and the
mask is applied before any op that saves the matrix, so autograd accepts it and the gradient is exact.
The asserts compare the encoder gradient with an out-of-place masked_fill version (identical) and
check that the contrastive loss falls during a few epochs of training.
"""
import torch
import torch.nn as nn

from simloss import simclr_loss


def simclr_loss_out_of_place(feats, temperature):
    cos_sim = nn.functional.cosine_similarity(feats[:, None, :], feats[None, :, :], dim=-1)
    self_mask = torch.eye(cos_sim.shape[0], dtype=torch.bool)
    cos_sim = cos_sim.masked_fill(self_mask, -9e15)
    pos_mask = self_mask.roll(shifts=cos_sim.shape[0] // 2, dims=0)
    cos_sim = cos_sim / temperature
    return (-cos_sim[pos_mask] + torch.logsumexp(cos_sim, dim=-1)).mean()


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 32))
        self.proj = nn.Sequential(nn.ReLU(), nn.Linear(32, 16))

    def forward(self, x):
        return self.proj(self.backbone(x))


def two_views(x):
    return torch.cat([x + 0.1 * torch.randn_like(x), x + 0.1 * torch.randn_like(x)], dim=0)


torch.manual_seed(0)
torch.set_num_threads(1)

data = torch.randn(256, 20)
model = Encoder()

# same gradient as the out-of-place version
x = two_views(data[:32])
model.zero_grad()
simclr_loss(model(x), 0.5).backward()
g_inplace = [p.grad.clone() for p in model.parameters()]
model.zero_grad()
simclr_loss_out_of_place(model(x), 0.5).backward()
g_ref = [p.grad.clone() for p in model.parameters()]
assert all(torch.allclose(a, b, atol=1e-6) for a, b in zip(g_inplace, g_ref))
assert all(g.abs().sum() > 0 for g in g_inplace)

opt = torch.optim.Adam(model.parameters(), lr=1e-3)
epoch_loss = []
for epoch in range(6):
    total = 0.0
    for i in range(0, 256, 32):
        loss = simclr_loss(model(two_views(data[i:i + 32])), 0.5)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item()
    epoch_loss.append(total / 8)
assert epoch_loss[-1] < epoch_loss[0]

print("NT-Xent per epoch:", [round(v, 3) for v in epoch_loss])
