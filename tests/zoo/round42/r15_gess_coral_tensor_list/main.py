"""
expect: GL002 coral.py:22
dynamic: confirm
source: https://github.com/Graph-COM/GESS/blob/ada3d893fb9bd8b57692a73e5b7b969978e92385/GESS/algorithms/baselines/coral.py

A geometric deep-learning benchmark trains a point-cloud encoder on a labelled source domain
and an unlabelled target domain, with Deep CORAL aligning the covariances of the two
domains' graph embeddings. Coral.feat_postprocess() collects the per-batch CORAL terms in a
list and reduces them with torch.tensor(coral_loss_list).mean(): torch.tensor copies the
values into a brand-new leaf, so the alignment term is a constant with no grad_fn. The total
loss still prints a CORAL value, but the encoder's gradient is identical whatever the CORAL
weight is and the domain gap is never reduced. The asserts check that the term has no
history, that the encoder gradient with weight 1000 equals the one with weight 0, and that
the intended reduction (torch.stack) makes the weight matter and shrinks the covariance gap.
"""
import warnings

import torch
import torch.nn as nn

from coral import Coral

warnings.filterwarnings("ignore", message="Converting a tensor with requires_grad=True")
torch.manual_seed(0)
torch.set_num_threads(1)


class PointEncoder(nn.Module):
    def __init__(self, in_dim=3, hid=16, n_cls=3):
        super().__init__()
        self.point_mlp = nn.Sequential(nn.Linear(in_dim + 3, hid), nn.ReLU(), nn.Linear(hid, hid))
        self.head = nn.Linear(hid, n_cls)

    def geo_dat_repr(self, x, pos, batch):
        h = self.point_mlp(torch.cat([x, pos], -1))
        n_graphs = int(batch.max()) + 1
        pooled = torch.zeros(n_graphs, h.shape[1]).index_add(0, batch, h)
        counts = torch.zeros(n_graphs).index_add(0, batch, torch.ones_like(batch, dtype=torch.float))
        return pooled / counts[:, None]

    def clf_out(self, feats):
        return self.head(feats)


def make_domain(n_graphs, pts, shift):
    batch = torch.arange(n_graphs).repeat_interleave(pts)
    x = torch.randn(n_graphs * pts, 3) * (1 + shift)
    pos = torch.randn(n_graphs * pts, 3) + shift
    return {"x": x, "pos": pos, "batch": batch, "y": torch.randint(0, 3, (n_graphs,))}


src, trg = make_domain(32, 10, 0.0), make_domain(32, 10, 1.5)


def encoder_grad(algo, coeff):
    algo.coeff = coeff
    algo.model.zero_grad()
    loss, _ = algo.forward_pass(src, trg)
    loss.backward()
    return torch.cat([p.grad.flatten() for p in algo.model.point_mlp.parameters()])


class CoralStacked(Coral):
    def feat_postprocess(self, src_feats, trg_feats):
        dis = self.compute_covariance(src_feats) - self.compute_covariance(trg_feats)
        return torch.stack([torch.mean(dis * dis) / 4]).mean() * self.coeff


def covariance_gap(algo):
    with torch.no_grad():
        f = algo.model.geo_dat_repr(torch.cat([src["x"], trg["x"]]), torch.cat([src["pos"], trg["pos"]]),
                                    torch.cat([src["batch"], trg["batch"] + 32]))
        fs, ft = torch.chunk(f, 2)
        return (algo.compute_covariance(fs) - algo.compute_covariance(ft)).pow(2).mean().item()


def train(algo, steps=60):
    opt = torch.optim.Adam(algo.model.parameters(), lr=1e-2)
    for _ in range(steps):
        loss, logs = algo.forward_pass(src, trg)
        opt.zero_grad()
        loss.backward()
        opt.step()
    return logs


torch.manual_seed(1)
buggy = Coral(PointEncoder(), coeff=1.0)
_, logs = buggy.forward_pass(src, trg)
term = buggy.feat_postprocess(*torch.chunk(buggy.model.geo_dat_repr(
    torch.cat([src["x"], trg["x"]]), torch.cat([src["pos"], trg["pos"]]),
    torch.cat([src["batch"], trg["batch"] + 32])), 2))
assert term.grad_fn is None and not term.requires_grad and logs["coral"] > 0
assert torch.equal(encoder_grad(buggy, 0.0), encoder_grad(buggy, 1000.0)), "CORAL weight has no effect"

torch.manual_seed(1)
intended = CoralStacked(PointEncoder(), coeff=1.0)
assert not torch.equal(encoder_grad(intended, 0.0), encoder_grad(intended, 1000.0))

torch.manual_seed(1)
buggy = Coral(PointEncoder(), coeff=50.0)
torch.manual_seed(1)
intended = CoralStacked(PointEncoder(), coeff=50.0)
gap0 = covariance_gap(buggy)
train(buggy)
train(intended)
gap_bug, gap_ok = covariance_gap(buggy), covariance_gap(intended)
assert gap_ok < 0.5 * gap_bug, (gap_bug, gap_ok)
print(f"covariance gap: start {gap0:.4f}, list->tensor {gap_bug:.4f}, stacked {gap_ok:.4f}")
