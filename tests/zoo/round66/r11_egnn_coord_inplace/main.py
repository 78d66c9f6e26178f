"""
expect: GL005 egnn_layer.py:31
dynamic: confirm
source: https://github.com/vgsatorras/egnn/issues/3

Equivariant networks (E(n) EGNN). The coordinate branch of the E(n)-equivariant
graph layer updates positions with `coord += agg`. In the first layer the input
positions are plain data, but from the second layer on `coord` is the output of the
previous layer and has just been handed to `torch.cdist` (this variant builds radial
features from dense pairwise distances), which saves it for its backward. The
in-place add bumps its version counter, so training a two-layer EGNN to denoise
molecule-like point clouds fails in backward with "modified by an inplace operation"
(the report: "ran into autograd issues with this in-place operation in a different
project"). The asserts catch that error for the in-place layer and show that the
out-of-place update `coord = coord + agg` (the upstream fix) trains: the loss drops and
the coordinate MLP receives gradient.
"""
import torch
import torch.nn.functional as F

from egnn_layer import EGNN

torch.manual_seed(0)
torch.set_num_threads(1)

N_NODES = 12
row, col = zip(*[(i, j) for i in range(N_NODES) for j in range(N_NODES) if i != j])
row, col = torch.tensor(row), torch.tensor(col)


def make_batch():
    clean = torch.randn(N_NODES, 3)
    noisy = clean + 0.1 * torch.randn_like(clean)
    atom_types = F.one_hot(torch.randint(0, 4, (N_NODES,)), 4).float()
    return atom_types, noisy, clean


def train(inplace, steps=30):
    torch.manual_seed(1)
    model = EGNN(in_nf=4, hidden_nf=32, n_layers=2, inplace_coord_update=inplace)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    losses = []
    batch = make_batch()
    for _ in range(steps):
        h, x_noisy, x_clean = batch
        _, x_pred = model(h, x_noisy.clone(), row, col)
        loss = F.mse_loss(x_pred, x_clean)
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return model, losses


# buggy default path: in-place coordinate update
try:
    train(inplace=True)
    raised = None
except RuntimeError as e:
    raised = str(e)
assert raised is not None and "modified by an inplace operation" in raised, raised
print("in-place coord update fails:", raised.splitlines()[0][:100])

# fixed: out-of-place update
model, losses = train(inplace=False)
assert losses[-1] < losses[0], losses
g = model.layers[1].coord_mlp[0].weight.grad
assert g is not None and g.abs().sum() > 0
print("out-of-place update trains: %.5f -> %.5f" % (losses[0], losses[-1]))
