"""
expect: GL003 67
dynamic: confirm
source: https://github.com/determined-ai/determined/issues/7043

The report: a user trained an unsupervised graph encoder as a Determined PyTorchTrial and,
in `evaluate_batch`, created PyGCL's `LREvaluator()(z, batch.y, split)` to score the
embeddings with a logistic-regression probe. The trial crashed inside the evaluator's
`loss.backward()` with "element 0 of tensors does not require grad": the harness runs
evaluate_batch under torch.no_grad(), and the evaluator (lr_evaluator.py) trains a model
inside it. This program rebuilds the harness, a GCN-style encoder trained with a simple
two-view contrastive loss, and the evaluation hook. The asserts show the probe's backward
fails under the harness's no_grad and that the same evaluation run with gradients enabled
trains the probe to well above chance.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from lr_evaluator import LREvaluator

torch.manual_seed(0)


def make_graph(n=120, k=3):
    y = torch.arange(n) % k
    feats = F.one_hot(y, k).float() + 0.8 * torch.randn(n, k)
    feats = torch.cat([feats, torch.randn(n, 5)], dim=1)
    same = (y[:, None] == y[None]).float()
    adj = (torch.rand(n, n) < 0.08 * same + 0.01).float()
    adj = ((adj + adj.T + torch.eye(n)) > 0).float()
    deg = adj.sum(1)
    return feats, adj / deg.sqrt()[:, None] / deg.sqrt()[None], y


class GCNEncoder(nn.Module):
    def __init__(self, d_in, d_hid=16):
        super().__init__()
        self.l1, self.l2 = nn.Linear(d_in, d_hid), nn.Linear(d_hid, d_hid)

    def forward(self, x, a):
        return self.l2(a @ F.relu(self.l1(a @ x)))


class GCLTrial:
    def __init__(self, graph):
        self.x, self.a, self.y = graph
        self.model = GCNEncoder(self.x.size(1))
        self.opt = torch.optim.Adam(self.model.parameters(), lr=1e-2)
        perm = torch.randperm(len(self.y))
        self.split = {"train": perm[:80], "test": perm[80:]}

    def train_batch(self):
        z1 = F.normalize(self.model(F.dropout(self.x, 0.2), self.a), dim=1)
        z2 = F.normalize(self.model(F.dropout(self.x, 0.2), self.a), dim=1)
        loss = F.cross_entropy(z1 @ z2.T / 0.5, torch.arange(len(z1)))
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()

    def evaluate_batch(self):
        z = self.model(self.x, self.a)
        return LREvaluator()(z, self.y, self.split)


def run_validation(trial):
    trial.model.eval()
    with torch.no_grad():
        metrics = trial.evaluate_batch()
    trial.model.train()
    return metrics


if __name__ == "__main__":
    trial = GCLTrial(make_graph())
    for _ in range(30):
        trial.train_batch()
    try:
        run_validation(trial)
        raise AssertionError("expected the probe's backward to fail under no_grad")
    except RuntimeError as e:
        assert "does not require grad" in str(e), e

    with torch.enable_grad():
        metrics = trial.evaluate_batch()
    assert metrics["micro_f1"] > 0.6, metrics
    print("OK: probe training inside the harness's no_grad fails; with grad it scores", metrics)
