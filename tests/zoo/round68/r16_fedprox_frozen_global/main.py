"""
expect: none
dynamic: dismiss
source: https://github.com/vaseline555/Federated-Learning-in-PyTorch/blob/main/src/client/fedproxclient.py

Federated learning with FedProx. In the client's update(), the round's starting
model is deep-copied and every parameter of the copy is switched to
requires_grad = False; the proximal term sums ||w - w_global|| over the
parameters and is added to the loss in place (loss += mu * 0.5 * prox). The frozen
copy looks like a cut path, but it is the intended constant anchor of the
proximal term: the gradient must flow into the local weights w only, and it
does. The asserts show that the first local gradient equals the cross-entropy
gradient plus the analytic gradient mu/2 * (w - w_g)/||w - w_g|| of the proximal
term (zero at the first step, non-zero afterwards), that the frozen copy gets no
gradient and never moves, that mu > 0 keeps the local models closer to the global
one than mu = 0, and that federated rounds lower the loss.
"""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

from fedprox_client import FedproxClient

torch.manual_seed(0)
torch.set_num_threads(1)


def make_model():
    return nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 3))


def make_client_data(shift):
    x = torch.randn(48, 8) + shift
    y = (x[:, 0] + x[:, 1] > 2 * shift).long() + (x[:, 2] > shift).long()
    return x, y


def fedavg(states):
    avg = copy.deepcopy(states[0])
    for k in avg:
        for s in states[1:]:
            avg[k] += s[k]
        avg[k] = avg[k] / len(states)
    return avg


def run(mu, rounds=6):
    torch.manual_seed(1)
    global_model = make_model()
    data = [make_client_data(s) for s in (-1.0, 0.0, 1.5)]
    clients = [FedproxClient(mu=mu, cid=i, model=make_model(), inputs=x, targets=y)
               for i, (x, y) in enumerate(data)]
    history, drift = [], []
    for r in range(rounds):
        g_state = copy.deepcopy(global_model.state_dict())
        states = []
        for c in clients:
            c.download(g_state)
            c.trace = []
            history.append(c.update())
            assert all(p.grad is None for p in c.global_snapshot.parameters())
            for (n, p) in c.global_snapshot.named_parameters():
                assert torch.equal(p, g_state[n])
            d = sum((p.detach() - g_state[n]).norm() ** 2 for n, p in c.model.named_parameters())
            drift.append(d.sqrt().item())
            states.append(c.upload())
        global_model.load_state_dict(fedavg(states))
    return history, drift, clients


# gradient check: first step (w == w_g) and second step (w != w_g) of a local update
torch.manual_seed(3)
client = FedproxClient(mu=0.5, cid=0, model=make_model(), inputs=torch.randn(32, 8),
                       targets=torch.randint(0, 3, (32,)), local_epochs=1)
w_g = {n: p.detach().clone() for n, p in client.model.named_parameters()}
client.update()
for k, (weights, grads, (xb, yb)) in enumerate(client.trace):
    probe = make_model()
    probe.load_state_dict(weights)
    ce = F.cross_entropy(probe(xb), yb)
    ce_grads = dict(zip(weights, torch.autograd.grad(ce, list(probe.parameters()))))
    for n in weights:
        diff = weights[n] - w_g[n]
        prox_grad = 0.5 * 0.5 * diff / diff.norm() if diff.norm() > 0 else torch.zeros_like(diff)
        assert torch.allclose(grads[n], ce_grads[n] + prox_grad, atol=1e-5), (k, n)
    if k == 1:
        assert any((grads[n] - ce_grads[n]).abs().max() > 1e-3 for n in weights)
print("local gradient = CE gradient + mu/2 * (w - w_g)/||w - w_g||; anchor stays frozen")

hist_prox, drift_prox, _ = run(mu=0.5)
hist_avg, drift_avg, _ = run(mu=0.0)
assert sum(drift_prox) < sum(drift_avg), (sum(drift_prox), sum(drift_avg))
assert sum(hist_prox[-3:]) < sum(hist_prox[:3]), (hist_prox[:3], hist_prox[-3:])
print("client drift with mu=0.5:", round(sum(drift_prox), 3), "vs mu=0:", round(sum(drift_avg), 3))
