"""
expect: GL004 forecaster.py:58
dynamic: confirm
source: https://github.com/AhmetZamanis/DeepLearningEnergyForecasting/blob/74126dbcd5dd25476cccfbd4de78b4ace1d00710/src/deep_learning/lstm.py

A stateful quantile forecaster for an hourly energy series, trained by a small
Lightning-like loop. The model stores the last recurrent state of each batch
and starts the next batch from it without detaching, and its backward hook
calls loss.backward(retain_graph=True) on every batch except the last one of
the epoch, meant to let backprop run across batch borders. Every
new loss is therefore chained to the graphs of all earlier batches of the
epoch: each backward walks through all of them again, the gradient of old
windows is applied over and over, and the retained graph (memory and time)
grows batch after batch. The asserts count the autograd nodes reachable from
each loss and show the count grows every batch, that a hook on the first
batch's state fires again in every later backward, and that detaching the carried
state keeps the graph size constant.
"""
import torch

from forecaster import StatefulQuantileForecaster


def count_nodes(loss):
    seen, stack = set(), [loss.grad_fn]
    while stack:
        fn = stack.pop()
        if fn is None or fn in seen:
            continue
        seen.add(fn)
        stack.extend(nxt for nxt, _ in fn.next_functions)
    return len(seen)


def make_batches(n_batches, batch=8, horizon=4, window=12, n_features=3):
    g = torch.Generator().manual_seed(1)
    series = torch.cumsum(torch.randn(n_batches * batch * horizon + window, n_features, generator=g), 0)
    batches = []
    t = 0
    for _ in range(n_batches):
        xs, ys = [], []
        for _ in range(batch):
            wins = torch.stack([series[t + h:t + h + window] for h in range(horizon)])
            xs.append(wins)
            ys.append(series[t + window:t + window + horizon, 0])
            t += horizon
        batches.append((torch.stack(xs), torch.stack(ys)))
    return batches


def fit(detach_state, n_batches=8):
    torch.manual_seed(0)
    model = StatefulQuantileForecaster(window=12, n_features=3, hidden=16,
                                       quantiles=[0.1, 0.5, 0.9], horizon=4)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    batches = make_batches(n_batches)
    sizes, first_state_hits = [], [0]
    for i, batch in enumerate(batches):
        if detach_state and model._last_state is not None:
            model._last_state = model._last_state.detach()
        opt.zero_grad()
        loss = model.training_step(batch)
        if i == 0:
            model._last_state.register_hook(lambda g: first_state_hits.__setitem__(0, first_state_hits[0] + 1))
        sizes.append(count_nodes(loss))
        model.backward(loss, is_last_batch=(i == len(batches) - 1))
        opt.step()
    model.on_train_epoch_end()
    return sizes, first_state_hits[0]


if __name__ == "__main__":
    torch.set_num_threads(1)
    sizes, hits = fit(detach_state=False)
    assert all(b > a for a, b in zip(sizes, sizes[1:])), sizes
    assert sizes[-1] > 4 * sizes[0], sizes
    assert hits == len(sizes), hits  # batch 0's state is revisited by every backward

    sizes_ok, hits_ok = fit(detach_state=True)
    assert len(set(sizes_ok[1:])) == 1, sizes_ok
    assert hits_ok == 1, hits_ok  # only batch 0's own backward reaches it
    print("graph nodes per batch, carried:", sizes, "detached:", sizes_ok)
