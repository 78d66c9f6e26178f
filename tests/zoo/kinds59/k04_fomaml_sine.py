"""
expect: GL005 55
dynamic: confirm
source: none, invented

First-order MAML on sine-wave regression. For every task the code snapshots the meta weights,
adapts the model in place with a few SGD steps on the support set, computes the query loss with
the adapted weights, restores the snapshot with `model.load_state_dict(saved)` and only then calls
`query_loss.backward()`. `load_state_dict` copies into the very parameter tensors the query
forward saved for its backward, so autograd raises "modified by an inplace operation". The asserts
catch that error; the fixed variant backpropagates the query loss first (the gradients stay in
`.grad`), restores the snapshot afterwards and steps the meta optimizer, and the meta weights move
and the post-adaptation query loss drops.
"""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


def sample_task(k=10):
    amp = 0.1 + 4.9 * torch.rand(1)
    phase = 3.1416 * torch.rand(1)
    xs = torch.rand(k, 1) * 10 - 5
    xq = torch.rand(k, 1) * 10 - 5
    return xs, amp * torch.sin(xs + phase), xq, amp * torch.sin(xq + phase)


def regressor():
    return nn.Sequential(nn.Linear(1, 40), nn.ReLU(), nn.Linear(40, 40), nn.ReLU(), nn.Linear(40, 1))


def adapt(model, xs, ys, steps=3, lr=0.01):
    inner_opt = torch.optim.SGD(model.parameters(), lr=lr)
    for _ in range(steps):
        inner_opt.zero_grad()
        F.mse_loss(model(xs), ys).backward()
        inner_opt.step()


def meta_train(model, n_tasks, accumulate_first=False):
    meta_opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    losses = []
    for _ in range(n_tasks):
        xs, ys, xq, yq = sample_task()
        saved = copy.deepcopy(model.state_dict())
        adapt(model, xs, ys)
        query_loss = F.mse_loss(model(xq), yq)
        meta_opt.zero_grad()
        if not accumulate_first:
            model.load_state_dict(saved)
            query_loss.backward()
        else:
            query_loss.backward()
            model.load_state_dict(saved)
        meta_opt.step()
        losses.append(query_loss.item())
    return losses


if __name__ == "__main__":
    net = regressor()
    try:
        meta_train(net, 1)
        msg = None
    except RuntimeError as e:
        msg = str(e)
    assert msg is not None and "modified by an inplace operation" in msg, msg

    torch.manual_seed(0)
    net = regressor()
    before = copy.deepcopy(net.state_dict())
    losses = meta_train(net, 300, accumulate_first=True)
    moved = max((net.state_dict()[k] - before[k]).abs().max().item() for k in before)
    assert moved > 1e-3, moved
    early, late = sum(losses[:50]) / 50, sum(losses[-50:]) / 50
    assert late < early, (early, late)
    print("k04_fomaml_sine: all checks passed")
