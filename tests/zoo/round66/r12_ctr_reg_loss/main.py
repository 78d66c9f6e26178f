"""
expect: GL004 basemodel.py:59, GL005 basemodel.py:63
dynamic: confirm
source: https://github.com/shenweichen/DeepCTR-Torch/issues/88

Click-through-rate prediction (DeepFM). The model's constructor builds the L2
regularisation term of the embedding and linear tables once, from the initial weights,
and stores it in `self.reg_loss`; `fit()` then adds that stored tensor to every
mini-batch loss and calls `total_loss.backward(retain_graph=True)` so the old
regularisation graph can be walked again next step. Between two such backwards
`optim.step()` updates the embedding weights in place, and those weights were saved by
the `pow(2)` nodes of the stored graph, so the second batch dies with "one of the
variables needed for gradient computation has been modified by an inplace operation"
(the issue's DeepFM example crash). Even without the crash the term is a graph of the
initial weights reused forever. The asserts catch the error on the default path and show
that recomputing the penalty inside each step (the upstream fix), with a plain
backward, trains: the log-loss drops on a synthetic click log.
"""
import torch

from basemodel import BaseModel

torch.manual_seed(0)
torch.set_num_threads(1)

FIELD_DIMS = [10, 20, 5, 8]
N = 512
x = torch.stack([torch.randint(0, n, (N,)) for n in FIELD_DIMS], dim=1)
true_w = torch.randn(sum(FIELD_DIMS))
offsets = torch.tensor([0] + FIELD_DIMS[:-1]).cumsum(0)
logit = true_w[x + offsets].sum(1)
y = (torch.rand(N) < torch.sigmoid(logit)).float()

# buggy default path: reg loss built in __init__, reused with retain_graph=True
model = BaseModel(FIELD_DIMS, reg_in_init=True)
try:
    model.fit(x, y, epochs=1)
    raised = None
except RuntimeError as e:
    raised = str(e)
assert raised is not None and "modified by an inplace operation" in raised, raised
print("stored reg loss + retain_graph fails:", raised.splitlines()[0][:90])

# fixed: penalty recomputed each step from the current weights
torch.manual_seed(0)
model = BaseModel(FIELD_DIMS, reg_in_init=False)
hist = model.fit(x, y, epochs=8)
first, last = sum(hist[:8]) / 8, sum(hist[-8:]) / 8
assert last < first - 0.05, (first, last)
print("per-step reg loss trains: %.3f -> %.3f" % (first, last))
