"""
expect: GL001 fedprox.py:20
dynamic: confirm
source: https://github.com/selimfirat/fedipc-spatial-reuse/blob/HEAD/federated_trainers/fed_prox_trainer.py

A federated-learning repo implements FedProx by adding mu/2 * ||w - w_global||^2 to the
client loss, reading the current weights from `self.model.state_dict()` inside the shared
FedAvg train loop. state_dict() hands back detached tensors, so the proximal term is a
constant: it shows up in the logged loss but contributes no gradient, and FedProx silently
trains exactly like FedAvg. The asserts show the prox term has no grad_fn, that a client run
with mu=0 and with a huge mu end at identical weights, and that a version using the live
parameters does pull the client back toward the global model.
"""
import torch
import torch.nn as nn
from fedprox import FedProxClientTrainer, snapshot

torch.manual_seed(0)
torch.set_num_threads(1)


def make_loader(n_batches=6):
    g = torch.Generator().manual_seed(1)
    return [(torch.randn(16, 5, generator=g), torch.randn(16, 1, generator=g) + 3.0)
            for _ in range(n_batches)]


def run_client(mu):
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(5, 8), nn.Tanh(), nn.Linear(8, 1))
    global_state = snapshot(model)
    trainer = FedProxClientTrainer(model, mu=mu)
    trainer.train_node(make_loader(), global_state)
    return model, global_state, trainer


def drift(model, global_state):
    return sum(((p.detach() - global_state[n]) ** 2).sum().item()
               for n, p in model.named_parameters())


m0, g0, _ = run_client(mu=0.0)
m1, g1, t1 = run_client(mu=5.0)

# the proximal term is built from detached tensors
term = t1.proximal_term(m1.state_dict(), g1)
assert term.grad_fn is None and not term.requires_grad
assert term.item() > 0.0  # it has a value (so it is logged) but no gradient

# mu has no effect at all on the trained client
for p0, p1 in zip(m0.parameters(), m1.parameters()):
    assert torch.equal(p0, p1)

# fixed variant: proximal term on the live parameters
torch.manual_seed(0)
mf = nn.Sequential(nn.Linear(5, 8), nn.Tanh(), nn.Linear(8, 1))
gf = snapshot(mf)
opt = torch.optim.SGD(mf.parameters(), lr=0.1)
for x, y in make_loader():
    opt.zero_grad()
    prox = sum(((p - gf[n]) ** 2).sum() for n, p in mf.named_parameters())
    loss = nn.functional.mse_loss(mf(x), y) + 0.5 * 5.0 * prox
    loss.backward()
    opt.step()
assert drift(mf, gf) < 0.5 * drift(m1, g1)
print("ok: prox term detached, FedProx == FedAvg; fixed drift", drift(mf, gf), "vs", drift(m1, g1))
