"""
expect: GL005 nets.py:24
dynamic: confirm
source: https://github.com/makgyver/fluke/blob/dce445f769c345c1962ce1ac694249123de3d88b/fluke/nets.py#L588

fluke is a federated-learning library; its ResNet9 residual block ends with `out = self.relu(out)`
followed by `out += residual`. The ReLU is created with `inplace=False`, which looks safe, but
ReLU's backward is computed from its own output, so autograd saves that output tensor; the `+=`
then bumps its version counter and the first `backward()` of every client fails with "one of the
variables needed for gradient computation has been modified by an inplace operation". The project
fixed it later by writing `out = out + residual` (commit 4f73bfb). Here `nets.py` holds a small
residual CNN with the same block and this file runs FedAvg over three clients on random 8x8
images. The asserts catch the in-place error raised inside the first client's local update, check
that the server model is left untouched, and show that the out-of-place block lets five FedAvg
rounds run and lowers the global loss.
"""
import copy

import torch
import torch.nn.functional as F

from nets import TinyResNet

torch.manual_seed(0)
torch.set_num_threads(1)


def make_client_data(n_clients=3, n=24):
    templates = torch.randn(3, 1, 8, 8)
    clients = []
    for _ in range(n_clients):
        y = torch.randint(0, 3, (n,))
        x = templates[y] + 0.5 * torch.randn(n, 1, 8, 8)
        clients.append((x, y))
    return clients


def local_update(global_model, data, epochs=2, lr=0.1):
    model = copy.deepcopy(global_model)
    model.train()
    opt = torch.optim.SGD(model.parameters(), lr=lr)
    x, y = data
    for _ in range(epochs):
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    return model.state_dict(), len(y)


def fedavg(states, sizes):
    total = float(sum(sizes))
    avg = {}
    for key in states[0]:
        if states[0][key].is_floating_point():
            avg[key] = sum(s[key] * (n / total) for s, n in zip(states, sizes))
        else:
            avg[key] = states[0][key].clone()
    return avg


def global_loss(model, clients):
    model.eval()
    with torch.no_grad():
        return sum(F.cross_entropy(model(x), y).item() for x, y in clients) / len(clients)


def run(out_of_place, clients, init_state, rounds=5):
    server = TinyResNet(out_of_place=out_of_place)
    server.load_state_dict(init_state)
    for _ in range(rounds):
        results = [local_update(server, data) for data in clients]
        server.load_state_dict(fedavg([s for s, _ in results], [n for _, n in results]))
    return server


def main():
    clients = make_client_data()
    init_state = copy.deepcopy(TinyResNet().state_dict())

    server = TinyResNet()
    server.load_state_dict(init_state)
    try:
        local_update(server, clients[0])
        raise AssertionError("expected the in-place error")
    except RuntimeError as err:
        assert "modified by an inplace operation" in str(err)
    for key, value in server.state_dict().items():
        assert torch.equal(value, init_state[key]), key

    reference = TinyResNet(out_of_place=True)
    reference.load_state_dict(init_state)
    start = global_loss(reference, clients)
    trained = run(True, clients, init_state)
    end = global_loss(trained, clients)
    assert end < start, (start, end)
    print(f"in-place block: local update fails; out-of-place block: global loss {start:.3f} -> {end:.3f}")


if __name__ == "__main__":
    main()
