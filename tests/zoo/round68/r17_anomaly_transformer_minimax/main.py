"""
expect: GL005 solver.py:49
dynamic: confirm
source: https://github.com/thuml/Anomaly-Transformer/issues/5

Time-series anomaly detection with the Anomaly Transformer (association
discrepancy, minimax training). The solver builds two losses from one forward
pass: loss1 = rec - k * series_loss (maximise the discrepancy for the series
association) and loss2 = rec + k * prior_loss (minimise it for the prior). The
first released solver back-propagated loss1 with retain_graph=True, then called
optimizer.step(), then back-propagated loss2 through the same retained graph.
The step rewrites in place the weights that the attention and linear layers saved
in that graph, so loss2.backward() fails with "modified by an inplace operation"
(the issue reports it at the loss2 line; old PyTorch silently used the stepped
weights). The later fix does both backwards and a single step. The asserts show
the error on the default path and that the fixed ordering trains: the
reconstruction loss falls and both losses reach the attention parameters.
"""
import torch

from solver import Solver

torch.manual_seed(0)
torch.set_num_threads(1)

WIN, C, B = 16, 3, 8


def make_windows(n_batches=6):
    t = torch.arange(n_batches * B * WIN, dtype=torch.float32).view(n_batches, B, WIN, 1)
    base = torch.cat([torch.sin(t / 3), torch.cos(t / 5), torch.sin(t / 7)], dim=-1)
    return [w + 0.05 * torch.randn_like(w) for w in base]


loader = make_windows()
solver = Solver(loader, WIN, C)
try:
    solver.train(num_epochs=1)
    raised = None
except RuntimeError as e:
    raised = str(e)
assert raised is not None and "modified by an inplace operation" in raised, raised
print("step between the two minimax backwards raised:", raised.splitlines()[0][:90])

torch.manual_seed(0)
fixed = Solver(loader, WIN, C, step_each_loss=False)
sigma_w = fixed.model.layers[0].attention.sigma_projection.weight
query_w = fixed.model.layers[0].attention.query.weight
history = fixed.train(num_epochs=15)
assert sigma_w.grad is not None and sigma_w.grad.abs().sum() > 0
assert query_w.grad is not None and query_w.grad.abs().sum() > 0
first = sum(h[0] for h in history[:6]) / 6
last = sum(h[0] for h in history[-6:]) / 6
assert last < 0.5 * first, (first, last)
print("fixed minimax update trains, reconstruction loss", round(first, 4), "->", round(last, 4))
