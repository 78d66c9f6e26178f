"""
expect: GL005 36
dynamic: confirm
source: https://github.com/banctilrobitaille/torch-vectorized/issues/5

torch-vectorized computes closed-form eigen-decompositions of many 3x3 symmetric matrices at once (diffusion
tensor volumes). Its eigenvector routine built each eigenvector from cofactor terms, took the vector norm
with torch.sqrt, and then guarded against division by zero by writing 1 into the zero entries of that norm
with an index assignment. sqrt saves its own output for the backward pass, so that assignment edits a saved
tensor; the user who tried to train through the eigenvectors got "modified by an inplace operation ...
output 0 of SqrtBackward". The maintainer's fix adds a small epsilon inside the square root instead. This
program predicts symmetric tensors from random features with a linear layer, computes the principal
eigenvector with the same kind of helper, and trains it to align with target fibre directions. The asserts
catch and check the RuntimeError for the index-assignment guard and show that the epsilon version trains:
the alignment loss falls and the layer gets non-zero gradients.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)

EPSILON = 1e-12


def principal_eigenvector(m, guard_in_place):
    """m: (N, 3, 3) symmetric. Returns the unit eigenvector of the largest eigenvalue, (N, 3)."""
    lam = torch.linalg.eigvalsh(m)[:, 2]
    a11, a12, a13 = m[:, 0, 0], m[:, 0, 1], m[:, 0, 2]
    a22, a23 = m[:, 1, 1], m[:, 1, 2]
    u0 = a12 * a23 - a13 * (a22 - lam)
    u1 = a12 * a13 - a23 * (a11 - lam)
    u2 = (a11 - lam) * (a22 - lam) - a12 * a12
    if guard_in_place:
        norm = torch.sqrt(u0 ** 2 + u1 ** 2 + u2 ** 2)
        norm[torch.where(norm == 0)] = 1
    else:
        norm = torch.sqrt(u0 ** 2 + u1 ** 2 + u2 ** 2 + EPSILON)
    return torch.stack([u0 / norm, u1 / norm, u2 / norm], dim=1)


class TensorPredictor(nn.Module):
    def __init__(self, n_feat=10):
        super().__init__()
        self.lin = nn.Linear(n_feat, 6)

    def forward(self, x):
        d = self.lin(x)
        row0 = torch.stack([d[:, 0] + 2.0, d[:, 3], d[:, 4]], dim=1)
        row1 = torch.stack([d[:, 3], d[:, 1] + 1.0, d[:, 5]], dim=1)
        row2 = torch.stack([d[:, 4], d[:, 5], d[:, 2] + 0.5], dim=1)
        return torch.stack([row0, row1, row2], dim=1)


feats = torch.randn(32, 10)
fibre = nn.functional.normalize(torch.randn(32, 3), dim=1)


def alignment_loss(model, guard_in_place):
    v = principal_eigenvector(model(feats), guard_in_place)
    return (1.0 - (v * fibre).sum(dim=1) ** 2).mean()


# 1) in-place guard on the sqrt output
model = TensorPredictor()
loss = alignment_loss(model, guard_in_place=True)
raised = False
try:
    loss.backward()
except RuntimeError as err:
    raised = "modified by an inplace operation" in str(err)
assert raised, "expected the in-place norm guard to break backward"
print("in-place norm guard: backward refused (sqrt output was overwritten)")

# 2) epsilon inside the sqrt trains
torch.manual_seed(0)
model = TensorPredictor()
opt = torch.optim.Adam(model.parameters(), lr=2e-2)
history = []
for step in range(150):
    opt.zero_grad()
    loss = alignment_loss(model, guard_in_place=False)
    loss.backward()
    if step == 0:
        assert model.lin.weight.grad.abs().sum() > 0
    opt.step()
    history.append(loss.item())
assert history[-1] < 0.7 * history[0], (history[0], history[-1])
print("epsilon in sqrt: alignment loss %.3f -> %.3f" % (history[0], history[-1]))
