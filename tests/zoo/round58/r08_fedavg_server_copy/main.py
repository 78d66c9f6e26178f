"""
expect: none
dynamic: dismiss
source: https://github.com/FLEXible-FL/FLEXible/pull/124

FLEXible's PyTorch primitives (PR #124, commit c3327cb "add with torch.no_grad() to avoid copying
gradients") collect each client's weights, or the difference to the model it received, from
`state_dict()` inside `torch.no_grad()`, average them, and write the result into the server model
with in-place `weight_dict[key].copy_(new)` or `weight_dict[key].add_(new)`, again under
no_grad. That is a lot of no-grad and in-place editing of tensors that are model parameters, but
none of it is a gradient path: aggregation is meant to be outside autograd, the in-place writes
happen between rounds when no graph holds those parameters, and the parameters stay leaf tensors
that require grad, so the next round of local training works normally. `fl_ops.py` holds the
primitives; this file runs FedAvg on three clients with a linear regression model. The asserts
check that the server weights equal the exact weighted average after each round (both the
copy_ and the add_ paths), that they are still trainable leaves with no gradient attached, that
clients deployed from them receive gradients, and that the global loss drops.
"""
import torch
import torch.nn.functional as F
from torch import nn

from fl_ops import (collect_client_diff_weights, collect_client_weights, deploy_server_model,
                    fedavg, set_aggregated_diff_weights, set_aggregated_weights)

torch.manual_seed(0)
torch.set_num_threads(1)


def make_clients(sizes=(20, 30, 50)):
    w_true = torch.tensor([[1.5, -2.0, 0.5]])
    clients = []
    for n in sizes:
        x = torch.randn(n, 3) + 0.3 * torch.randn(1, 3)
        clients.append((x, x @ w_true.t() + 0.7 + 0.05 * torch.randn(n, 1)))
    return clients


def local_train(model, data, epochs=5, lr=0.05):
    opt = torch.optim.SGD(model.parameters(), lr=lr)
    x, y = data
    for _ in range(epochs):
        loss = F.mse_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    assert all(p.grad is not None for p in model.parameters())


def global_loss(model, clients):
    with torch.no_grad():
        return sum(F.mse_loss(model(x), y).item() * len(y) for x, y in clients) / sum(len(y) for _, y in clients)


def main():
    clients = make_clients()
    sizes = [len(y) for _, y in clients]
    server = nn.Linear(3, 1)
    start = global_loss(server, clients)

    for rnd in range(8):
        received = [deploy_server_model(server) for _ in clients]
        trained = [deploy_server_model(server) for _ in clients]
        for model, data in zip(trained, clients):
            local_train(model, data)
        if rnd % 2 == 0:
            weights = [collect_client_weights(m) for m in trained]
            expected = fedavg(weights, sizes)
            set_aggregated_weights(server, fedavg(weights, sizes))
        else:
            diffs = [collect_client_diff_weights(m, p) for m, p in zip(trained, received)]
            before = [w.clone() for w in server.state_dict().values()]
            expected = [b + d for b, d in zip(before, fedavg(diffs, sizes))]
            set_aggregated_diff_weights(server, fedavg(diffs, sizes))
        for p, e in zip(server.parameters(), expected):
            assert torch.allclose(p, e, atol=1e-6)
            assert p.is_leaf and p.requires_grad and p.grad is None and p.grad_fn is None

    end = global_loss(server, clients)
    assert end < 0.05 * start, (start, end)
    print(f"FedAvg global mse {start:.3f} -> {end:.4f}")


if __name__ == "__main__":
    main()
