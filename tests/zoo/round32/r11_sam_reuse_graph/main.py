"""
expect: GL005 sam.py:24
dynamic: confirm

A user of a SAM optimizer reports a "modified by an inplace operation" error
just before the second backward. Their trainer computes the loss once, backs
it up with retain_graph=True, lets first_step() move the weights in place to
the perturbed point, and then calls backward on the same old loss instead of
running a fresh forward. The in-place p.add_ bumps the weights' version while
the retained graph still holds them. The asserts show the error and that a
fresh forward at the perturbed weights trains fine.
"""
import torch
import torch.nn as nn
from sam import SAM

torch.manual_seed(0)
torch.set_num_threads(1)


def make_model():
    torch.manual_seed(0)
    return nn.Sequential(nn.Linear(6, 16), nn.Tanh(), nn.Linear(16, 3))


x = torch.randn(32, 6)
y = torch.randint(0, 3, (32,))
crit = nn.CrossEntropyLoss()


class Trainer:
    def __init__(self, model, reuse_loss):
        self.model = model
        self.opt = SAM(model.parameters(), torch.optim.SGD, rho=0.05, lr=0.1)
        self.reuse_loss = reuse_loss

    def step(self):
        loss = crit(self.model(x), y)
        loss.backward(retain_graph=self.reuse_loss)
        self.opt.first_step()
        if self.reuse_loss:
            loss.backward()  # "second" SAM pass reuses the first graph
        else:
            crit(self.model(x), y).backward()
        self.opt.second_step()
        return loss.item()


buggy = Trainer(make_model(), reuse_loss=True)
raised = False
try:
    buggy.step()
except RuntimeError as e:
    raised = "inplace operation" in str(e)
assert raised, "expected the version-counter error on the reused graph"

fixed = Trainer(make_model(), reuse_loss=False)
losses = [fixed.step() for _ in range(20)]
assert losses[-1] < losses[0], losses
print("ok", losses[0], losses[-1])
