"""
expect: GL001 traineval.py:24
dynamic: confirm
source: https://github.com/Meriem30/FL-aggregation-evaluation/blob/0d9af281f3e6eb97bceb1f68ef1a1cb41d7d2d6b/util/traineval.py

A federated simulation with FedDyn clients: each client minimises its cross-entropy minus a
linear term <L, w> plus a quadratic pull alpha/2 ||w - w_server||^2 toward the server model. In
traineval.py the flattened local parameter vector is built once, before the batch loop, from
p.data, so it is a constant with no graph: both dynamic-regulariser terms add a number to the loss
and nothing to the gradient, and the state L is updated from that stale copy. The asserts show
that, on a drifted client with a non-zero L, one FedDyn step yields exactly the same parameters
as one plain cross-entropy step, while the version that reads the live parameters moves them
differently and keeps the client measurably closer to the server model after a round.
"""
import copy

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

from traineval import flat_params, train, train_dyn, train_dyn_live

torch.manual_seed(0)
torch.set_num_threads(1)

ALPHA = 0.5
loss_fun = nn.CrossEntropyLoss()


def client_data(shift):
    x = torch.randn(64, 6) + shift
    y = (x[:, 0] + x[:, 1] > 2 * shift).long()
    return DataLoader(TensorDataset(x, y), batch_size=16, shuffle=False)


loaders = [client_data(0.0), client_data(1.5)]
torch.manual_seed(3)
server = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 2))


def run_round(train_fn, L, c_idx, lr=0.1):
    client = copy.deepcopy(server)
    opt = torch.optim.SGD(client.parameters(), lr=lr)
    # let the client drift first so the regulariser has something to act on
    train(client, loaders[c_idx], opt, loss_fun)
    train_fn(ALPHA, client, server, loaders[c_idx], opt, loss_fun, L, c_idx)
    return client


L_bug = [None, None]
run_round(train_dyn, L_bug, 1)
assert L_bug[1].abs().sum() > 0, "the dual state is non-zero after one round"

# one local step on the same drifted client: FedDyn update vs plain cross-entropy update
drifted = copy.deepcopy(server)
train(drifted, loaders[1], torch.optim.SGD(drifted.parameters(), lr=0.1), loss_fun)
one_batch = DataLoader(TensorDataset(*next(iter(loaders[1]))), batch_size=16)


def one_step(train_fn=None):
    c = copy.deepcopy(drifted)
    opt = torch.optim.SGD(c.parameters(), lr=0.1)
    if train_fn is None:
        train(c, one_batch, opt, loss_fun)
    else:
        train_fn(ALPHA, c, server, one_batch, opt, loss_fun, [None, L_bug[1].clone()], 1)
    return flat_params(c).detach()


w_plain, w_bug, w_live = one_step(), one_step(train_dyn), one_step(train_dyn_live)
assert torch.equal(w_bug, w_plain), "the FedDyn terms changed nothing in the update"
assert not torch.allclose(w_live, w_plain), "with live parameters the terms do act"
w_server = flat_params(server).detach()

# over a round, the live penalty keeps the client nearer the server model
torch.manual_seed(5)
c_bug = run_round(train_dyn, [None, None], 1, lr=0.2)
torch.manual_seed(5)
c_live = run_round(train_dyn_live, [None, None], 1, lr=0.2)
d_bug = (flat_params(c_bug) - w_server).norm().item()
d_live = (flat_params(c_live) - w_server).norm().item()
assert d_live < d_bug, (d_live, d_bug)
print("distance to server after a round: stale penalty %.3f, live penalty %.3f" % (d_bug, d_live))
