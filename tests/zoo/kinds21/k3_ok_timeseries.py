"""
expect: none
dynamic: dismiss
source: kinds check 21, kind 3 (written for this check)

Load forecasting with an ensemble held in a list: each member unrolls a GRUCell and
writes every hidden state into a torch.zeros(B, T, H) buffer, and the ensemble's
one-step-ahead predictions are written into a torch.empty(K, ...) buffer before the
MSE loss. The written values carry history, so autograd keeps the path through the
index assignments. The asserts show every parameter of every member gets a nonzero
gradient, equal to the gradient of a torch.stack version of the same model.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class GRUForecaster(nn.Module):
    def __init__(self, n_series, hid=16):
        super().__init__()
        self.hid = hid
        self.cell = nn.GRUCell(n_series, hid)
        self.readout = nn.Linear(hid, n_series)

    def forward(self, x, use_stack=False):
        B, T, _ = x.shape
        h = x.new_zeros(B, self.hid)
        states = torch.zeros(B, T, self.hid)
        kept = []
        for t in range(T):
            h = self.cell(x[:, t], h)
            states[:, t] = h
            kept.append(h)
        return self.readout(torch.stack(kept, 1) if use_stack else states)


def ensemble_loss(members, x, use_stack=False):
    K, (B, T, D) = len(members), x.shape
    preds = torch.empty(K, B, T - 1, D)
    for k, m in enumerate(members):
        preds[k] = m(x, use_stack)[:, :-1]
    return F.mse_loss(preds.mean(0), x[:, 1:]) + 0.1 * preds.var(0).mean()


def grads(members, x, use_stack):
    for m in members:
        m.zero_grad()
    ensemble_loss(members, x, use_stack).backward()
    return [p.grad.clone() for m in members for p in m.parameters()]


if __name__ == "__main__":
    torch.manual_seed(7)
    t = torch.arange(24.0)
    x = torch.stack([torch.sin(t / 3 + ph) for ph in torch.rand(6 * 3)]).view(6, 3, 24)
    x = x.transpose(1, 2) + 0.05 * torch.randn(6, 24, 3)
    members = [GRUForecaster(3) for _ in range(3)]
    g_buf = grads(members, x, use_stack=False)
    g_ref = grads(members, x, use_stack=True)
    assert all(g.abs().sum() > 0 for g in g_buf)
    assert all(torch.allclose(a, b, atol=1e-6) for a, b in zip(g_buf, g_ref))
    opt = torch.optim.Adam([p for m in members for p in m.parameters()], lr=1e-2)
    first = None
    for _ in range(20):
        opt.zero_grad()
        loss = ensemble_loss(members, x)
        loss.backward()
        opt.step()
        first = first if first is not None else loss.item()
    assert loss.item() < first
    print("ok: index assignment into the buffers keeps every member trainable")
