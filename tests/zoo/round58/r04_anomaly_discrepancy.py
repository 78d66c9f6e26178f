"""
expect: GL002 63
dynamic: confirm
source: https://github.com/Derposoft/crypto_pump_and_dump_with_deep_learning/blob/49f7d37ff2a4e6bef5d9fca96dc6472f903abd73/models/anomaly_transformer.py#L187

The project detects crypto pump-and-dump events with an Anomaly Transformer. Each attention layer
keeps a learned "series" association S (softmax of QK^T) and a Gaussian "prior" association P
whose width comes from a linear sigma projection; the loss adds the association discrepancy
(row-wise symmetric KL between P and S) in a minimax scheme: min_loss detaches S so P is pulled
toward S, max_loss detaches P so S is pushed away. Commit 3f2f325 ("fixed broken sigma
calculation") rebuilt the discrepancy vector as `torch.Tensor([rowwise_kl(row).item() for row in
...])`, so every KL value goes through a Python float and comes back as a constant. The detaches
in min_loss/max_loss are the intended stop-gradients; the rebuild is the bug: the discrepancy term
no longer has a history, the minimax degenerates to plain MSE, and the sigma projection, which
is only reachable through the prior, never receives a gradient. The asserts show that with the
rebuild the discrepancy term does not require grad and the sigma projection's `.grad` stays None
over training with its weights unchanged, while stacking the KL tensors (the fix) gives it a
non-zero gradient and moves it.
"""
import math

import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)
torch.set_num_threads(1)


class AnomalyAttention(nn.Module):
    def __init__(self, n, d_model):
        super().__init__()
        self.q = nn.Linear(d_model, d_model)
        self.k = nn.Linear(d_model, d_model)
        self.v = nn.Linear(d_model, d_model)
        self.sigma = nn.Linear(d_model, 1)
        idx = torch.arange(n).float()
        self.register_buffer("dist", (idx[:, None] - idx[None, :]).abs())
        self.S = None
        self.P = None

    def forward(self, x):
        scores = self.q(x) @ self.k(x).t() / math.sqrt(x.shape[-1])
        self.S = torch.softmax(scores, dim=-1)
        sigma = torch.pow(3.0, torch.sigmoid(5 * self.sigma(x)) + 1e-5) - 1  # (n, 1)
        gauss = torch.exp(-self.dist ** 2 / (2 * sigma ** 2)) / (math.sqrt(2 * math.pi) * sigma)
        self.P = gauss / gauss.sum(dim=-1, keepdim=True)
        return self.S @ self.v(x)


def sym_kl(p, s, eps=1e-8):
    return (p * ((p + eps).log() - (s + eps).log())).sum() + (s * ((s + eps).log() - (p + eps).log())).sum()


class DiscrepancyLoss:
    def __init__(self, lam=0.5, rebuild=True):
        self.lam = lam
        self.rebuild = rebuild

    def layer_discrepancy(self, P, S):
        rowwise_kl = lambda row: sym_kl(P[row], S[row])
        if self.rebuild:
            ad_vector = torch.Tensor([rowwise_kl(row).item() for row in range(len(P))])
        else:
            ad_vector = torch.stack([rowwise_kl(row) for row in range(len(P))])
        return ad_vector

    def discrepancy(self, P_list, S_list):
        return sum(self.layer_discrepancy(P, S) for P, S in zip(P_list, S_list)) / len(P_list)

    def objective(self, preds, y, P_list, S_list, lam):
        return F.mse_loss(preds, y) - lam * self.discrepancy(P_list, S_list).abs().mean()

    def min_loss(self, preds, y, P_layers, S_layers):
        return self.objective(preds, y, P_layers, [S.detach() for S in S_layers], -self.lam)

    def max_loss(self, preds, y, P_layers, S_layers):
        return self.objective(preds, y, [P.detach() for P in P_layers], S_layers, self.lam)


class PumpDetector(nn.Module):
    def __init__(self, n=12, d_model=8, layers=2):
        super().__init__()
        self.embed = nn.Linear(3, d_model)
        self.blocks = nn.ModuleList([AnomalyAttention(n, d_model) for _ in range(layers)])
        self.norms = nn.ModuleList([nn.LayerNorm(d_model) for _ in range(layers)])
        self.classifier = nn.Linear(d_model, 1)

    def forward(self, x):
        h = self.embed(x)
        for block, norm in zip(self.blocks, self.norms):
            h = norm(h + block(h))
        return self.classifier(h).squeeze(-1)


def make_windows(count=16, n=12):
    windows = []
    for _ in range(count):
        feats = torch.randn(n, 3) * 0.3
        label = torch.zeros(n)
        spot = torch.randint(2, n - 2, (1,)).item()
        feats[spot, 0] += 3.0  # a volume spike marks the pump
        label[spot] = 1.0
        windows.append((feats, label))
    return windows


def train(rebuild, windows, init_state, epochs=4):
    model = PumpDetector()
    model.load_state_dict(init_state)
    crit = DiscrepancyLoss(rebuild=rebuild)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    term_requires_grad = []
    for _ in range(epochs):
        for x, y in windows:
            preds = model(x)
            P_layers = [b.P for b in model.blocks]
            S_layers = [b.S for b in model.blocks]
            term_requires_grad.append(crit.discrepancy(P_layers, S_layers).requires_grad)
            opt.zero_grad()
            crit.min_loss(preds, y, P_layers, S_layers).backward(retain_graph=True)
            crit.max_loss(preds, y, P_layers, S_layers).backward()
            sigma_grads = [b.sigma.weight.grad for b in model.blocks]
            opt.step()
    return model, term_requires_grad, sigma_grads


def main():
    windows = make_windows()
    init_state = {k: v.clone() for k, v in PumpDetector().state_dict().items()}

    model, flags, sigma_grads = train(True, windows, init_state)
    assert not any(flags)
    assert all(g is None for g in sigma_grads)
    for i, block in enumerate(model.blocks):
        assert torch.equal(block.sigma.weight, init_state[f"blocks.{i}.sigma.weight"])
    assert not torch.equal(model.classifier.weight, init_state["classifier.weight"])  # MSE still trains

    model, flags, sigma_grads = train(False, windows, init_state)
    assert all(flags)
    assert all(g is not None and g.abs().sum() > 0 for g in sigma_grads)
    for i, block in enumerate(model.blocks):
        assert not torch.equal(block.sigma.weight, init_state[f"blocks.{i}.sigma.weight"])
    print("rebuilt discrepancy: sigma projection frozen; stacked discrepancy: sigma projection trains")


if __name__ == "__main__":
    main()
