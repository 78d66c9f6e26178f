"""
expect: GL002 gnn_solver.py:89
dynamic: confirm
source: https://github.com/MK040412/CSE-Assignment02/blob/60491e6c52408c271da862baf91e19ffafe07589/src/utsp_gnn.py

A graph-attention solver for the travelling salesman problem is trained
"self-supervised": each epoch it embeds the cities, decodes a tour greedily
(argmax + .item() per step), measures the tour length in NumPy, and then builds
the loss as torch.tensor(tour_length, requires_grad=True). That tensor is a new
leaf with no history, so backward() stops at it: none of the encoder,
attention or scorer weights ever receives a gradient and Adam leaves them
untouched, while the printed loss looks like a normal training curve. Making
the rebuilt tensor require grad only silences the "does not require grad"
error. The asserts run the original loop and show every parameter's .grad is
None and the weights are bit-identical after training; the fixed loop (REINFORCE
on a sampled tour, length used as a reward for the tour's log-probability)
gives gradients and moves the weights.
"""
import numpy as np
import torch

from gnn_solver import TSPSolver

torch.manual_seed(0)
torch.set_num_threads(1)
rng = np.random.default_rng(0)
instances = [rng.random((7, 2)) * 100 for _ in range(4)]

solver = TSPSolver()
before = [p.detach().clone() for p in solver.model.parameters()]
history = solver.train(instances, epochs=2)
assert len(history) == 8 and all(h > 0 for h in history)
assert all(p.grad is None for p in solver.model.parameters())
assert all(torch.equal(b, p) for b, p in zip(before, solver.model.parameters()))

torch.manual_seed(0)
fixed = TSPSolver()
before = [p.detach().clone() for p in fixed.model.parameters()]
fixed.train_reinforce(instances, epochs=2)
grads = [p.grad for p in fixed.model.parameters()]
assert all(g is not None for g in grads)
assert any(not torch.equal(b, p) for b, p in zip(before, fixed.model.parameters()))
print("r02 ok: rebuilt tour-length loss trains nothing, REINFORCE variant trains")
