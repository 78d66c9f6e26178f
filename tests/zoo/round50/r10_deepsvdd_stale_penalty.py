"""
expect: GL004 72, GL005 73
dynamic: confirm
source: https://github.com/yzhao062/pyod/issues/606

A one-class anomaly detector in the Deep SVDD style: a bias-free MLP maps
samples near a fixed centre c (computed once under no_grad from the first
forward pass, which is intended) and the loss is the mean squared distance to
c plus a small weight-norm penalty. The trainer builds that penalty from the
parameters ONCE, before the epoch loop, and adds the same tensor to every
batch loss. Its graph (the norm nodes, which saved the weights) therefore
belongs to every batch. The first plain backward frees it, so batch two
fails with "backward through the graph a second time"; the fix the message
suggests, backward(retain_graph=True), keeps that pre-loop graph alive across
all iterations, and the optimizer step between two backward calls edits the
weights in place that those norm nodes saved. The asserts show that batch
two's loss reaches the very node made before the loop, that its backward
then raises "modified by an inplace operation", and that rebuilding the
penalty inside the loop with a plain backward trains (distances shrink).
"""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


def build_net(n_features=10, hidden=(16, 8)):
    layers, d = [], n_features
    for h in hidden:
        layers += [nn.Linear(d, h, bias=False), nn.LeakyReLU(0.1)]
        d = h
    layers.append(nn.Linear(d, 4, bias=False))
    return nn.Sequential(*layers)


@torch.no_grad()
def init_center(net, x, eps=0.1):
    c = net(x).mean(dim=0)
    c[(c.abs() < eps) & (c < 0)] = -eps
    c[(c.abs() < eps) & (c >= 0)] = eps
    return c


def reachable(grad_fn):
    seen, stack = set(), [grad_fn]
    while stack:
        fn = stack.pop()
        if fn is None or fn in seen:
            continue
        seen.add(fn)
        stack.extend(nxt for nxt, _ in fn.next_functions)
    return seen


def batches(x, size):
    for i in range(0, x.shape[0], size):
        yield x[i:i + size]


def fit_stale_penalty(net, x, c, epochs=1, batch_size=32):
    opt = torch.optim.Adam(net.parameters(), lr=1e-3, weight_decay=1e-6)
    w_d = 1e-6 * sum(torch.linalg.norm(w) for w in net.parameters())
    reached = []
    for _ in range(epochs):
        for xb in batches(x, batch_size):
            opt.zero_grad()
            dist = ((net(xb) - c) ** 2).sum(dim=-1)
            loss = dist.mean() + w_d
            reached.append(w_d.grad_fn in reachable(loss.grad_fn))
            try:
                loss.backward(retain_graph=True)
                opt.step()
            except RuntimeError as err:
                return reached, str(err)
    return reached, None


def fit_fresh_penalty(net, x, c, epochs=30, batch_size=32):
    opt = torch.optim.Adam(net.parameters(), lr=1e-3, weight_decay=1e-6)
    for _ in range(epochs):
        for xb in batches(x, batch_size):
            opt.zero_grad()
            w_d = 1e-6 * sum(torch.linalg.norm(w) for w in net.parameters())
            dist = ((net(xb) - c) ** 2).sum(dim=-1)
            (dist.mean() + w_d).backward()
            opt.step()


def mean_dist(net, x, c):
    with torch.no_grad():
        return ((net(x) - c) ** 2).sum(dim=-1).mean().item()


def main():
    x = torch.randn(256, 10)

    net = build_net()
    c = init_center(net, x)
    reached, err = fit_stale_penalty(net, x, c)
    assert reached == [True, True], reached  # batch 2 still reaches the pre-loop node
    assert err is not None and "modified by an inplace operation" in err, err

    torch.manual_seed(1)
    net2 = build_net()
    c2 = init_center(net2, x)
    before = mean_dist(net2, x, c2)
    fit_fresh_penalty(net2, x, c2)
    after = mean_dist(net2, x, c2)
    assert after < 0.5 * before, (before, after)
    print(f"stale penalty: pre-loop node reached by {len(reached)} batch graphs, "
          f"then backward failed on batch {len(reached)}")
    print(f"fresh penalty: mean distance {before:.4f} -> {after:.4f}")


if __name__ == "__main__":
    main()
