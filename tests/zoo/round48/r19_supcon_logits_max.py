"""
expect: none
dynamic: dismiss
source: https://github.com/HobbitLong/SupContrast/issues/58

Supervised contrastive loss (SupCon) on two augmented views per sample. Before the softmax the
loss subtracts each row's maximum similarity, taken with .detach(): the issue asks why. The shift
cancels in the log-softmax, so no gradient is lost by detaching it; it only keeps exp() finite when
the temperature is small. The asserts check that the encoder and projection head get the same
gradients with the detached shift, with no shift and with an undetached shift, that without the
shift the loss overflows to inf/nan at a small temperature while the shifted one stays finite, and
that training the encoder with this loss lowers it and pulls same-class embeddings together.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class SupConLoss(nn.Module):
    def __init__(self, temperature=0.1, shift="detached"):
        super().__init__()
        self.temperature = temperature
        self.shift = shift

    def forward(self, features, labels):
        # features: [batch, n_views, dim], already L2-normalised
        b, v, _ = features.shape
        feats = torch.cat(torch.unbind(features, dim=1), dim=0)
        lab = labels.repeat(v)
        pos = (lab[:, None] == lab[None, :]).float()
        self_mask = 1.0 - torch.eye(b * v)
        pos = pos * self_mask

        sim = feats @ feats.T / self.temperature
        row_max, _ = sim.max(dim=1, keepdim=True)
        if self.shift == "detached":
            logits = sim - row_max.detach()
        elif self.shift == "live":
            logits = sim - row_max
        else:
            logits = sim
        exp_logits = torch.exp(logits) * self_mask
        log_prob = logits - torch.log(exp_logits.sum(1, keepdim=True))
        mean_pos = (pos * log_prob).sum(1) / pos.sum(1)
        return -mean_pos.mean()


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(12, 32), nn.ReLU(), nn.Linear(32, 16))
        self.head = nn.Sequential(nn.Linear(16, 16), nn.ReLU(), nn.Linear(16, 8))

    def forward(self, x):
        return F.normalize(self.head(self.encoder(x)), dim=-1)


centers = torch.randn(4, 12) * 2


def batch(n=32):
    y = torch.randint(0, 4, (n,))
    x = centers[y]
    views = torch.stack([x + 0.5 * torch.randn_like(x), x + 0.5 * torch.randn_like(x)], dim=1)
    return views, y


net = Net()
views, y = batch()


def grads_for(shift, t=0.1):
    net.zero_grad()
    SupConLoss(t, shift)(net(views), y).backward()
    return [p.grad.clone() for p in net.parameters()]


g_det, g_none, g_live = grads_for("detached"), grads_for("none"), grads_for("live")
for a, b, c in zip(g_det, g_none, g_live):
    assert a.abs().sum() > 0
    assert torch.allclose(a, b, atol=1e-6) and torch.allclose(a, c, atol=1e-6)

with torch.no_grad():
    cold_raw = SupConLoss(0.005, "none")(net(views), y)
    cold_shift = SupConLoss(0.005, "detached")(net(views), y)
assert not torch.isfinite(cold_raw) and torch.isfinite(cold_shift)

opt = torch.optim.Adam(net.parameters(), lr=3e-3)
crit = SupConLoss(0.1)
hist = []
for _ in range(150):
    v, lab = batch()
    loss = crit(net(v), lab)
    opt.zero_grad()
    loss.backward()
    opt.step()
    hist.append(loss.item())

with torch.no_grad():
    v, lab = batch(64)
    z = net(v[:, 0])
    s = z @ z.T
    same = (lab[:, None] == lab[None, :]) & ~torch.eye(64, dtype=torch.bool)
    gap = s[same].mean() - s[~same].mean()
print(f"SupCon loss {sum(hist[:10]) / 10:.3f} -> {sum(hist[-10:]) / 10:.3f}; same-minus-other cosine {gap:.3f}")
assert sum(hist[-10:]) < sum(hist[:10])
assert gap > 0.5
