"""
expect: GL005 score_net.py:20
dynamic: confirm
source: https://github.com/DeepGraphLearning/ConfGF/issues/6

A molecular-conformation score network (denoising score matching on
interatomic distances) fails at loss.backward() with "output 0 of
ReluBackward0 ... is at version 1": a message-passing layer adds the
aggregated messages into the ReLU output in place (node += agg), and ReLU
saved that output for its backward. The asserts show the training step
raises the version-counter error, and that the same network with an
out-of-place residual trains (loss goes down) with identical weights.
"""
import torch

from score_net import DistanceScoreNet

torch.manual_seed(0)
torch.set_num_threads(1)

n_atoms = 6
atom_types = torch.randint(0, 5, (n_atoms,))
pairs = torch.combinations(torch.arange(n_atoms), r=2).t()
edge_index = torch.cat([pairs, pairs.flip(0)], dim=1)
pos = torch.randn(n_atoms, 3)
d = (pos[edge_index[0]] - pos[edge_index[1]]).norm(dim=-1, keepdim=True)


def dsm_step(model, opt, sigma=0.1):
    noise = torch.randn_like(d) * sigma
    d_tilde = d + noise
    target = -noise / sigma ** 2
    score = model(atom_types, edge_index, d_tilde)
    loss = 0.5 * ((score - target) ** 2 * sigma ** 2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.item()


buggy = DistanceScoreNet(inplace_residual=True)
fixed = DistanceScoreNet(inplace_residual=False)
fixed.load_state_dict(buggy.state_dict())

opt_b = torch.optim.Adam(buggy.parameters(), lr=1e-2)
try:
    dsm_step(buggy, opt_b)
    raised = False
except RuntimeError as err:
    raised = "modified by an inplace operation" in str(err)
assert raised

opt_f = torch.optim.Adam(fixed.parameters(), lr=1e-2)
torch.manual_seed(1)
first = sum(dsm_step(fixed, opt_f) for _ in range(5)) / 5
for _ in range(100):
    dsm_step(fixed, opt_f)
last = sum(dsm_step(fixed, opt_f) for _ in range(5)) / 5
assert last < first, (first, last)
print("ok", first, last)
