"""
expect: GL005 main.py:51
dynamic: confirm
source: https://github.com/kozistr/pytorch_optimizer/issues/66

An active-learning (random sampling) training loop switched to the SAM optimizer. The
reporter ran one forward pass, called loss.backward(retain_graph=True), then SAM's
first_step() (which perturbs every weight in place), and then backpropagated the *same*
graph again instead of re-running the model. The second backward needs the weights that the
first forward saved, but first_step() has bumped them in place, so it fails with "modified by
an inplace operation". The asserts show the reporter's step hits that version-counter error,
while the proper SAM step (a fresh forward at the perturbed weights) trains the backbone.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from sam import SAM

torch.manual_seed(0)
torch.set_num_threads(1)


class Backbone(nn.Module):
    def __init__(self):
        super().__init__()
        self.feat = nn.Linear(10, 32)
        self.head = nn.Linear(32, 4)

    def forward(self, x):
        h = F.relu(self.feat(x))
        return self.head(h), h


def labelled_pool(n=64):
    x = torch.randn(n, 10)
    y = torch.randint(0, 4, (n,))
    return x, y


def select_random(pool_x, pool_y, k):
    idx = torch.randperm(pool_x.shape[0])[:k]
    return pool_x[idx], pool_y[idx]


def train_epoch_reporter(model, opt, x, y):
    opt.zero_grad()
    scores, _ = model(x)
    loss = F.cross_entropy(scores, y)
    loss.backward(retain_graph=True)
    opt.first_step(zero_grad=True)
    loss.backward()  # second pass through the old graph
    opt.second_step(zero_grad=True)
    return loss.item()


def train_epoch_fixed(model, opt, x, y):
    opt.zero_grad()
    scores, _ = model(x)
    loss = F.cross_entropy(scores, y)
    loss.backward()
    opt.first_step(zero_grad=True)
    F.cross_entropy(model(x)[0], y).backward()  # full forward at the perturbed point
    opt.second_step(zero_grad=True)
    return loss.item()


pool_x, pool_y = labelled_pool()
x, y = select_random(pool_x, pool_y, 32)

model = Backbone()
opt = SAM(model.parameters(), torch.optim.SGD, rho=0.05, lr=0.1)
error = None
try:
    train_epoch_reporter(model, opt, x, y)
except RuntimeError as exc:
    error = str(exc)
assert error is not None and "inplace operation" in error, error

model2 = Backbone()
opt2 = SAM(model2.parameters(), torch.optim.SGD, rho=0.05, lr=0.1)
w0 = model2.feat.weight.detach().clone()
losses = [train_epoch_fixed(model2, opt2, x, y) for _ in range(30)]
assert not torch.equal(w0, model2.feat.weight.detach())
assert losses[-1] < losses[0], losses
print("ok", error[:60], losses[0], losses[-1])
