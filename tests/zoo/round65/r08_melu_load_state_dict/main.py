"""
expect: GL001 melu.py:59, GL005 melu.py:61
dynamic: confirm
source: https://github.com/hoyeoplee/MeLU/issues/9

Recommender systems (MeLU, meta-learned cold-start user preference estimation). The
local update builds fast weights from `state_dict()` values and the support-set
gradient (with create_graph=True), then installs them with
`self.model.load_state_dict(self.fast_weights)` before predicting the query set. Loading
a state dict copies values into the parameters without autograd, so the query
prediction no longer depends on the fast weights or on the adaptation step: the
meta-gradient of MAML is lost. Then `load_state_dict(self.keep_weight)` copies the old
values back in place into parameters that the query forward saved for backward, so on
current PyTorch the meta-update raises "modified by an inplace operation" (on old
versions it silently used the wrong values). The asserts show the query loss does not
reach any fast weight, catch the error on the default meta-update, and show that a
functional_call version gives non-zero meta-gradients and lowers the query loss.
"""
import os
import sys

import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from melu import MeLU, FunctionalMeLU  # noqa: E402

torch.manual_seed(0)
torch.set_num_threads(1)

ITEM_DIM, USER_DIM = 6, 4
user_proj = torch.randn(ITEM_DIM, USER_DIM)
item_factors = torch.randn(40, ITEM_DIM)
base_taste = torch.randn(ITEM_DIM)  # population-level preference


def make_task():
    """One cold-start user: 5 rated items for support, 5 for query."""
    taste = base_taste + 0.3 * torch.randn(ITEM_DIM)
    user = taste @ user_proj  # demographic profile correlated with taste
    idx = torch.randperm(40)[:10]
    items = item_factors[idx]
    ratings = torch.tanh(items @ taste)
    users = user.expand(10, USER_DIM)
    s, q = slice(0, 5), slice(5, 10)
    return (items[s], users[s]), ratings[s], (items[q], users[q]), ratings[q]


def batch(n=4):
    tasks = [make_task() for _ in range(n)]
    return [list(z) for z in zip(*tasks)]


torch.manual_seed(1)
val_tasks = batch(16)
torch.manual_seed(2)
train_batches = [batch() for _ in range(150)]

# default MeLU: the query loss is cut off from the fast weights
torch.manual_seed(0)
melu = MeLU()
sx, sy, qx, qy = val_tasks
q_pred = melu(sx[0], sy[0], qx[0], 1)
q_loss = F.mse_loss(q_pred, qy[0].view(-1, 1))
adapted = [w for w in melu.fast_weights.values() if w.requires_grad]
assert len(adapted) == 6
reach = torch.autograd.grad(q_loss, adapted, allow_unused=True)
assert all(g is None for g in reach)
err = None
try:
    melu.global_update(*train_batches[0], num_local_update=1)
except RuntimeError as e:
    err = str(e)
assert err is not None and "modified by an inplace operation" in err, err


def query_loss(model, tasks):
    sx, sy, qx, qy = tasks
    total = 0.0
    for i in range(len(sx)):
        pred = model(sx[i], sy[i], qx[i], 1)
        total += F.mse_loss(pred, qy[i].view(-1, 1)).item()
    return total / len(sx)


torch.manual_seed(0)
fixed = FunctionalMeLU()
before = query_loss(fixed, val_tasks)
for b in train_batches:
    fixed.global_update(*b, num_local_update=1)
g = fixed.model.item_emb.weight.grad
assert g is not None and g.abs().sum() > 0
after = query_loss(fixed, val_tasks)
assert after < 0.8 * before, (before, after)
print("buggy: %s..." % err[:60])
print("fixed: query MSE %.4f -> %.4f" % (before, after))
