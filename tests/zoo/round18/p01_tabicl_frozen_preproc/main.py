"""
expect: GL001 tabular_icl.py:57
dynamic: confirm
source: https://github.com/soda-inria/tabicl/issues/17

The report: a user wanted to fine-tune a learned preprocessing step end to end in front of
TabICL while keeping TabICL itself fixed, and "froze" TabICL the usual way, by putting it in
eval mode. In eval mode TabICL's forward dispatches to its inference path, which runs the
column/row embedders under `torch.no_grad()`, so the gradient never reaches the preprocessing
step. Because the ICL head after the no_grad block still has parameters that require grad,
the loss has a grad_fn and `backward()` runs without complaint. This program rebuilds that:
a feature-preprocessing module trained through an eval-mode tabular ICL model (defined in
tabular_icl.py). The asserts show the preprocessor's weights get no gradient and never move,
while the same loop that calls the model's differentiable path trains it.
"""
import copy
import torch
import torch.nn as nn
import torch.nn.functional as F
from tabular_icl import TabularICL

torch.manual_seed(0)


class LearnedPreprocessing(nn.Module):
    """Per-column affine rescaling followed by a learned feature mix."""
    def __init__(self, n_cols):
        super().__init__()
        self.scale = nn.Parameter(torch.ones(n_cols))
        self.shift = nn.Parameter(torch.zeros(n_cols))
        self.mix = nn.Linear(n_cols, n_cols)

    def forward(self, X):
        return self.mix(X * self.scale + self.shift)


def make_table(n=96, n_cols=5):
    X = torch.randn(n, n_cols) * torch.tensor([5.0, 0.2, 1.0, 3.0, 0.5])
    y = ((X[:, 0] / 5 + X[:, 3] / 3) > 0).long()
    return X[:64], y[:64], X[64:], y[64:]


def finetune(prep, icl, use_inference_path, steps=30):
    opt = torch.optim.Adam(prep.parameters(), lr=1e-2)
    Xtr, ytr, Xte, yte = make_table()
    for _ in range(steps):
        opt.zero_grad()
        if use_inference_path:
            logits = icl(prep(Xtr), ytr, prep(Xte))          # icl is in eval mode
        else:
            logits = icl._train_forward(prep(Xtr), ytr, prep(Xte))
        loss = F.cross_entropy(logits, yte)
        loss.backward()
        opt.step()
    return loss.item()


if __name__ == "__main__":
    icl = TabularICL(n_classes=2)
    icl.eval()                                                # "freeze" the foundation model
    prep = LearnedPreprocessing(5)
    before = copy.deepcopy(prep.state_dict())
    finetune(prep, icl, use_inference_path=True)
    for name, p in prep.named_parameters():
        assert p.grad is None, name
        assert torch.equal(p.detach(), before[name]), name

    fixed = LearnedPreprocessing(5)
    fixed.load_state_dict(before)
    finetune(fixed, icl, use_inference_path=False)
    moved = [not torch.equal(p.detach(), before[n]) for n, p in fixed.named_parameters()]
    assert all(moved)
    assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in fixed.parameters())
    print("OK: preprocessing starved through eval-mode ICL model; differentiable path trains it")
