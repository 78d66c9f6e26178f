"""
expect: none
dynamic: dismiss
source: https://github.com/yingxin-jia/SuperGlue-pytorch/blob/master/train.py

Keypoint matching (SuperGlue training). The training script wraps every tensor of
the batch dict in `Variable(...)`, builds the matching loss in the model as a
Python list of `-log P[i, j]` entries gathered from the optimal-transport score
matrix and reduces it with `torch.mean(torch.stack(loss))`, logs
`epoch_loss += Loss.item()`, keeps the loss tensors in `mean_loss` and prints
`torch.mean(torch.stack(mean_loss)).item()` every few steps. These look like
values being sent out of autograd and rebuilt, but none of them is on the
training path: the `Variable` calls rewrap input data that has no history anyway,
the stacked list keeps its graph, and the `.item()` calls only feed the log.
The asserts show the matcher parameters and the dustbin score get gradient and
that training raises the matching accuracy.
"""
import torch
import torch.nn as nn
from torch.autograd import Variable

torch.manual_seed(0)
torch.set_num_threads(1)


def log_optimal_transport(scores, alpha, iters):
    b, m, n = scores.shape
    bins0 = alpha.expand(b, m, 1)
    bins1 = alpha.expand(b, 1, n)
    alpha_ = alpha.expand(b, 1, 1)
    couplings = torch.cat([torch.cat([scores, bins0], -1), torch.cat([bins1, alpha_], -1)], 1)
    norm = -torch.tensor(float(m + n)).log()
    log_mu = torch.cat([norm.expand(m), torch.tensor([float(n)]).log() + norm])
    log_nu = torch.cat([norm.expand(n), torch.tensor([float(m)]).log() + norm])
    u = torch.zeros_like(log_mu).expand(b, -1)
    v = torch.zeros_like(log_nu).expand(b, -1)
    for _ in range(iters):
        u = log_mu - torch.logsumexp(couplings + v.unsqueeze(1), dim=2)
        v = log_nu - torch.logsumexp(couplings + u.unsqueeze(2), dim=1)
    return couplings + u.unsqueeze(2) + v.unsqueeze(1) - norm


class TinyGlue(nn.Module):
    def __init__(self, dim=16):
        super().__init__()
        self.proj = nn.Sequential(nn.Linear(dim, 32), nn.ReLU(), nn.Linear(32, 32))
        self.bin_score = nn.Parameter(torch.tensor(1.0))

    def forward(self, data):
        d0 = self.proj(data["descriptors0"])
        d1 = self.proj(data["descriptors1"])
        scores = torch.einsum("bmd,bnd->bmn", d0, d1) / d0.shape[-1] ** 0.5
        scores = log_optimal_transport(scores, self.bin_score, iters=20)
        all_matches = data["all_matches"]
        loss = []
        for i in range(all_matches.shape[1]):
            x, y = all_matches[0][i][0], all_matches[0][i][1]
            loss.append(-scores[0][x][y])
        loss_mean = torch.mean(torch.stack(loss))
        pred = scores[0, :-1, :-1].argmax(1)
        return {"loss": loss_mean, "matches0": pred}


def make_pair(n=24, dim=16):
    d0 = torch.randn(1, n, dim)
    perm = torch.randperm(n)
    d1 = d0[:, perm] + 0.6 * torch.randn(1, n, dim)
    inv = torch.argsort(perm)
    all_matches = torch.stack([torch.arange(n), inv], 1).unsqueeze(0)
    return {"descriptors0": d0, "descriptors1": d1, "all_matches": all_matches}


pairs = [make_pair() for _ in range(20)]
superglue = TinyGlue()
optimizer = torch.optim.Adam(superglue.parameters(), lr=3e-3)


def match_accuracy():
    with torch.no_grad():
        accs = []
        for p in pairs:
            out = superglue(p)
            accs.append((out["matches0"] == p["all_matches"][0, :, 1]).float().mean().item())
        return sum(accs) / len(accs)


acc_before = match_accuracy()
mean_loss = []
epoch_losses = []
for epoch in range(15):
    epoch_loss = 0
    for i, batch in enumerate(pairs):
        pred = {k: Variable(v) for k, v in batch.items()}
        data = superglue(pred)
        Loss = data["loss"]
        epoch_loss += Loss.item()
        mean_loss.append(Loss)
        superglue.zero_grad()
        Loss.backward()
        if epoch == 0 and i == 0:
            assert superglue.bin_score.grad is not None and superglue.bin_score.grad.abs() > 0
            assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in superglue.proj.parameters())
        optimizer.step()
        if (i + 1) % 10 == 0:
            _ = torch.mean(torch.stack(mean_loss)).item()
            mean_loss = []
    epoch_losses.append(epoch_loss / len(pairs))

acc_after = match_accuracy()
assert epoch_losses[-1] < 0.5 * epoch_losses[0], epoch_losses
assert acc_after > acc_before + 0.2 and acc_after > 0.8, (acc_before, acc_after)
print(f"loss {epoch_losses[0]:.3f} -> {epoch_losses[-1]:.3f}; match acc {acc_before:.2f} -> {acc_after:.2f}")
print("OK: Variable() on inputs, stacked loss list and .item() logging do not cut training")
