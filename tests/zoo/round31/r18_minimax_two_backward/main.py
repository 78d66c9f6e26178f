"""
expect: GL005 solver.py:44
dynamic: confirm
source: https://github.com/thuml/Anomaly-Transformer/issues/1

Anomaly-Transformer trains with a minimax strategy: loss1.backward(retain_graph=True),
optimizer.step(), then loss2.backward() through the same forward graph. Users on recent
PyTorch got "one of the variables needed for gradient computation has been modified by an
inplace operation": the first step() edits in place the weights the shared graph saved, so
the second backward would use the new weights. Here that pattern sits in Solver.train_step
in solver.py. The asserts show the second backward fails on the version counter, and the
variant that steps once after both backward calls trains.
"""
import torch
from solver import AssocNet, Solver

torch.manual_seed(0)
torch.set_num_threads(1)
x = torch.randn(4, 12, 8)

buggy = Solver(AssocNet(), step_between=True)
try:
    buggy.train_step(x)
    msg = ""
except RuntimeError as e:
    msg = str(e)
assert "modified by an inplace operation" in msg

torch.manual_seed(0)
fixed = Solver(AssocNet(), step_between=False)
w0 = fixed.model.q.weight.detach().clone()
for _ in range(3):
    fixed.train_step(x)
assert not torch.equal(w0, fixed.model.q.weight)
print("bug confirmed: optimizer.step() between two backward calls through one graph")
