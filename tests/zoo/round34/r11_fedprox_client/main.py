"""
expect: GL001 client.py:21
dynamic: confirm
source: https://github.com/yjlee22/FedShare/pull/2

The FedShare PR points at a FedProx client whose proximal penalty
mu/2 * ||w - w_t||^2 is written with w.data and w_t.data, so the term is a
constant: it adds to the printed loss but never pulls local weights toward
the global model. Here the client's proximal_term (client.py) does the same.
The asserts run one federated round with mu=0 and with a huge mu from the same
start: the local models come out bit-identical (mu does nothing), while a
fixed term (without .data) makes the client stay near the global weights.
"""
import copy

import torch
import torch.nn.functional as F

from client import LocalUpdate, average, make_net

torch.manual_seed(0)
torch.set_num_threads(1)

shards = []
for c in range(3):
    x = torch.randn(32, 6) + c
    y = torch.randint(0, 3, (32,))
    shards.append((x, y))

global_net = make_net()


def one_round(mu, client_cls=LocalUpdate):
    states = [client_cls(x, y, mu=mu).train(global_net) for x, y in shards]
    return states


plain = one_round(0.0)
prox = one_round(5.0)

# bug: the proximal strength has no effect at all
for s0, s1 in zip(plain, prox):
    for k in s0:
        assert torch.equal(s0[k], s1[k]), k


class FixedUpdate(LocalUpdate):
    def proximal_term(self, local_net, global_net):
        total = 0.0
        for w, w_t in zip(local_net.parameters(), global_net.parameters()):
            total = total + torch.norm(w - w_t.detach()) ** 2
        return self.mu / 2.0 * total


fixed = one_round(5.0, FixedUpdate)
g = global_net.state_dict()


def drift(states):
    return sum(float((s[k] - g[k]).norm()) for s in states for k in s)


assert drift(fixed) < 0.5 * drift(prox), (drift(fixed), drift(prox))
new_global = average(fixed)
print("ok: proximal term was inert; drift", drift(prox), "fixed drift", drift(fixed))
