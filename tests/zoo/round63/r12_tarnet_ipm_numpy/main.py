"""
expect: GL001 losses.py:30
dynamic: confirm
source: https://github.com/Zhuang-Zhuang-Liu/DeepUplift/blob/167cec73f4484c199259ec6b73bc4a761011988b/deepuplift/models/BaseModel.py

DeepUplift trains TARNet/CFR-style uplift models: a shared representation phi(x)
feeds two outcome heads, and with IPM=True the loss adds alpha times an integral
probability metric between the treated and control representations, the term that
is supposed to make phi balanced across the two groups. In BaseLoss the IPM is
computed by taking phi_x[...].detach().cpu().numpy() for each group and calling
scipy's wasserstein_distance per dimension, then adding the resulting Python
float to the outcome loss. Because the representation was detached before the
distance was computed, the IPM term is a constant: the model trains on the outcome
loss only and alpha has no effect on any parameter. This program reduces that to
a two-file setup (losses.py holds the loss, main.py the model and the fit loop)
with tiny synthetic confounded data and a NumPy W1 that matches scipy's. The
asserts show the representation gradients with alpha=50 equal those with alpha=0,
that after training with alpha=50 the weights are identical to training with
alpha=0, and that a differentiable (quantile-based) W1 changes the gradients and
shrinks the treated/control distance.
"""
import torch
import torch.nn as nn

from losses import tarnet_loss, tarnet_loss_fixed, wasserstein_1d

torch.manual_seed(0)
torch.set_num_threads(1)


class TARNet(nn.Module):
    def __init__(self, d_in, d_rep=4, d_hid=16):
        super().__init__()
        self.share = nn.Sequential(nn.Linear(d_in, d_hid), nn.ELU(), nn.Linear(d_hid, d_rep))
        self.h0 = nn.Sequential(nn.Linear(d_rep, d_hid), nn.ELU(), nn.Linear(d_hid, 1))
        self.h1 = nn.Sequential(nn.Linear(d_rep, d_hid), nn.ELU(), nn.Linear(d_hid, 1))

    def forward(self, x):
        phi = self.share(x)
        return [self.h0(phi), self.h1(phi)], phi


def make_data(n=256, d=6):
    x = torch.randn(n, d)
    p = torch.sigmoid(2.0 * x[:, 0] - x[:, 1])           # confounded treatment
    t = torch.bernoulli(p).view(-1, 1)
    y = (x[:, 0] + 0.5 * x[:, 2] + 1.5 * t.view(-1) + 0.1 * torch.randn(n)).view(-1, 1)
    return x, t, y


def rep_imbalance(model, x, t):
    with torch.no_grad():
        _, phi = model(x)
    m = t.view(-1) == 1
    return sum(wasserstein_1d(phi[m, k].numpy(), phi[~m, k].numpy())
               for k in range(phi.shape[1])) / phi.shape[1]


def fit(loss_f, alpha, x, t, y, epochs=40, seed=3):
    torch.manual_seed(seed)
    model = TARNet(x.shape[1])
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    for _ in range(epochs):
        for i in range(0, x.shape[0], 64):
            xb, tb, yb = x[i:i + 64], t[i:i + 64], y[i:i + 64]
            y_preds, phi = model(xb)
            loss, _, _ = loss_f(y_preds, tb, yb, phi, alpha=alpha, ipm=True)
            opt.zero_grad()
            loss.backward()
            opt.step()
    return model


def share_grads(loss_f, alpha, x, t, y):
    torch.manual_seed(7)
    model = TARNet(x.shape[1])
    y_preds, phi = model(x)
    loss, _, ipm = loss_f(y_preds, t, y, phi, alpha=alpha, ipm=True)
    loss.backward()
    return [p.grad.clone() for p in model.share.parameters()], ipm


x, t, y = make_data()

# the IPM term is really there (non-zero) but gives the representation nothing
g_a0, ipm0 = share_grads(tarnet_loss, 0.0, x, t, y)
g_a50, ipm50 = share_grads(tarnet_loss, 50.0, x, t, y)
assert isinstance(ipm50, float) and ipm50 > 0.01, ipm50
assert all(torch.equal(a, b) for a, b in zip(g_a0, g_a50)), "IPM changed the gradient?"

m_a0 = fit(tarnet_loss, 0.0, x, t, y)
m_a50 = fit(tarnet_loss, 50.0, x, t, y)
assert all(torch.equal(a, b) for a, b in zip(m_a0.parameters(), m_a50.parameters())), \
    "alpha should have no effect at all with the detached IPM"

# fixed: differentiable IPM
g_f0, _ = share_grads(tarnet_loss_fixed, 0.0, x, t, y)
g_f50, ipm_f = share_grads(tarnet_loss_fixed, 50.0, x, t, y)
assert ipm_f.requires_grad
assert sum((a - b).abs().sum().item() for a, b in zip(g_f0, g_f50)) > 1e-4
m_f50 = fit(tarnet_loss_fixed, 50.0, x, t, y)
imb_bug, imb_fix = rep_imbalance(m_a50, x, t), rep_imbalance(m_f50, x, t)
assert imb_fix < 0.5 * imb_bug, (imb_bug, imb_fix)

print("r12 ok: detached IPM is a constant (imbalance %.3f); differentiable IPM -> %.3f"
      % (imb_bug, imb_fix))
