"""
expect: none
dynamic: dismiss
source: https://github.com/Jaewoo-Shin/FL_ACT/blob/HEAD/train_tools/regularizer.py

Look-alike. A federated-learning toolkit implements FedProx and weight decay not as loss terms
but by editing `.grad` in place after backward(), using `p.data` and the server copy's `.data`.
Those `.data` reads look like a cut graph, but nothing here needs a graph: the proximal gradient
mu * (w - w_server) is written straight into .grad before optimizer.step(), and the edits happen
after backward has finished, so no saved tensor is touched. The asserts show the hand-added
gradient equals autograd's gradient of task + mu/2 * ||w - w_server||^2, and that a few local
steps stay closer to the server weights than plain FedAvg does.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from regularizer import fedprox, snapshot_server

torch.manual_seed(0)
torch.set_num_threads(1)

MU = 2.0
g = torch.Generator().manual_seed(3)
batches = [(torch.randn(16, 6, generator=g), torch.randint(0, 3, (16,), generator=g)) for _ in range(8)]


def make_model():
    torch.manual_seed(0)
    return nn.Sequential(nn.Linear(6, 10), nn.ReLU(), nn.Linear(10, 3))


def local_train(model, server, use_prox):
    opt = torch.optim.SGD(model.parameters(), lr=0.2)
    for x, y in batches:
        opt.zero_grad()
        F.cross_entropy(model(x), y).backward()
        if use_prox:
            fedprox(model, MU, server)
        opt.step()
    return model


def dist(model, server):
    return sum(((p.detach() - server[n]) ** 2).sum().item() for n, p in model.named_parameters())


# 1) the manual gradient equals the autograd gradient of the proximal objective
model = make_model()
server = snapshot_server(model)
with torch.no_grad():
    for p in model.parameters():
        p.add_(0.1 * torch.randn_like(p))
x, y = batches[0]
model.zero_grad()
F.cross_entropy(model(x), y).backward()
fedprox(model, MU, server)
manual = [p.grad.clone() for p in model.parameters()]

model.zero_grad()
prox = sum(((p - server[n]) ** 2).sum() for n, p in model.named_parameters())
(F.cross_entropy(model(x), y) + 0.5 * MU * prox).backward()
for a, p in zip(manual, model.parameters()):
    assert torch.allclose(a, p.grad, atol=1e-6)

# 2) FedProx client drifts less from the server than FedAvg
m_avg = make_model()
s = snapshot_server(m_avg)
local_train(m_avg, s, use_prox=False)
m_prox = make_model()
local_train(m_prox, s, use_prox=True)
assert dist(m_prox, s) < dist(m_avg, s)
print("ok: manual prox gradient matches autograd; drift", dist(m_prox, s), "<", dist(m_avg, s))
