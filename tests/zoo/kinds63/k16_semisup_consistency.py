"""
expect: GL005 43
dynamic: confirm
source: none, invented

Semi-supervised classification with a consistency loss (Pi-model style). A small `StepRunner` object is handed
the model in its constructor, keeps `self.opt = Adam(model.parameters())`, and its `apply(loss)` method does
zero_grad / backward / step. The training loop computes the supervised loss on the labelled batch and a
consistency loss between two noisy views of the unlabelled batch -- both through the same model, in separate
forward passes -- then calls `runner.apply(sup_loss)` and only then `cons_loss.backward()`. The consistency
graph saved the model's weights before `runner.apply` stepped them in place, so its backward raises "modified
by an inplace operation" (reported at the `step()` inside `apply`). The asserts catch that error; the fixed
loop hands the runner the combined loss and the classifier reaches high accuracy.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

D_IN, N_CLS = 10, 3
protos = torch.randn(N_CLS, D_IN) * 1.5


def labelled(n=16):
    y = torch.randint(0, N_CLS, (n,))
    return protos[y] + torch.randn(n, D_IN), y


def unlabelled(n=128):
    return labelled(n)[0]


class StepRunner:
    def __init__(self, model, lr=3e-3):
        self.model = model
        self.opt = torch.optim.Adam(model.parameters(), lr=lr)

    def apply(self, loss):
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        return loss.item()


def build():
    return nn.Sequential(nn.Linear(D_IN, 64), nn.ReLU(), nn.Dropout(0.2), nn.Linear(64, N_CLS))


def consistency(model, xu):
    p1 = F.softmax(model(xu + 0.3 * torch.randn_like(xu)), -1)
    p2 = F.softmax(model(xu + 0.3 * torch.randn_like(xu)), -1)
    return F.mse_loss(p1, p2)


def train(combined, steps=300, weight=5.0):
    torch.manual_seed(0)
    model = build()
    runner = StepRunner(model)
    for step in range(steps):
        xl, yl = labelled()
        sup_loss = F.cross_entropy(model(xl), yl)
        cons_loss = consistency(model, unlabelled())
        if combined:
            runner.apply(sup_loss + weight * cons_loss)
        else:
            runner.apply(sup_loss)
            cons_loss.backward()
            runner.opt.step()
    return model


try:
    train(combined=False, steps=3)
    problem = None
except RuntimeError as e:
    problem = str(e)
assert problem is not None and "modified by an inplace operation" in problem, problem

model = train(combined=True).eval()
with torch.no_grad():
    x, y = labelled(1000)
    acc = (model(x).argmax(1) == y).float().mean().item()
assert acc > 0.85, acc
print(f"ok: second backward after the runner's step hits the in-place check (as claimed); combined loss reaches accuracy {acc:.2f}")
