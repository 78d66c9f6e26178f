"""
expect: none
dynamic: dismiss
source: https://github.com/AvivSham/pFedHN/issues/5

Personalized federated learning with a hypernetwork (pFedHN-style). For a sampled client the
server generates target-network weights, copies them into the client's network with
load_state_dict and keeps a .data snapshot; the client trains locally for a few SGD steps
and returns its new state. The hypernetwork is then updated with torch.autograd.grad on the
generated weights, using (snapshot - final local weights) as the output gradient. The
load_state_dict copy and the .data snapshot cut the graph on purpose: the client's local
training must not backpropagate into the server, and the server's gradient comes from the
weight delta through the still-attached generated tensors. The asserts show every
hypernetwork parameter receives a gradient and that the generated weights get better for the
clients over the rounds.
"""
import random
from collections import OrderedDict

import torch
import torch.nn.functional as F

from hypernet import HyperNet, TargetNet


def make_clients(n_clients, gen):
    clients = []
    for _ in range(n_clients):
        w = torch.randn(6, 3, generator=gen)
        x = torch.randn(64, 6, generator=gen)
        clients.append((x, (x @ w).argmax(1)))
    return clients


def client_loss(net, data):
    x, y = data
    return F.cross_entropy(net(x), y)


def generated_loss(hnet, net, clients):
    total = 0.0
    with torch.no_grad():
        for cid, data in enumerate(clients):
            net.load_state_dict(hnet(cid))
            total += client_loss(net, data).item()
    return total / len(clients)


torch.manual_seed(0)
torch.set_num_threads(1)
random.seed(0)
clients = make_clients(4, torch.Generator().manual_seed(1))
net = TargetNet()
hnet = HyperNet(len(clients), net)
hnet_opt = torch.optim.Adam(hnet.parameters(), lr=1e-2)
before = generated_loss(hnet, net, clients)

for round_ in range(150):
    cid = random.randrange(len(clients))
    weights = hnet(cid)
    net.load_state_dict(weights)
    inner_state = OrderedDict((k, t.data) for k, t in weights.items())
    inner_opt = torch.optim.SGD(net.parameters(), lr=0.1)
    for _ in range(5):
        inner_opt.zero_grad()
        client_loss(net, clients[cid]).backward()
        inner_opt.step()
    final_state = net.state_dict()
    delta = OrderedDict((k, inner_state[k] - final_state[k]) for k in weights)
    hnet_grads = torch.autograd.grad(list(weights.values()), hnet.parameters(), grad_outputs=list(delta.values()))
    hnet_opt.zero_grad()
    for p, g in zip(hnet.parameters(), hnet_grads):
        p.grad = g
    assert all(g.abs().sum() > 0 for name, g in zip(dict(hnet.named_parameters()), hnet_grads) if name != "embeddings.weight")
    hnet_opt.step()

after = generated_loss(hnet, net, clients)
assert after < 0.8 * before, (before, after)
print("loss of generated weights across clients:", round(before, 3), "->", round(after, 3))
