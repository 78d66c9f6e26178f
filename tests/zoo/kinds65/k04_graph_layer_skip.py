"""
expect: none
dynamic: dismiss
source: none, invented

A two-layer graph network for node regression written with plain layer functions. Each layer computes
the softplus-activated neighbour aggregate as `support`; when a self-loop weight is given the skip term
is a new tensor mixing in the node's own features, otherwise the skip is `support` itself. The skip is
then rescaled by the degree normaliser and added to the output. Because the rescale is out of place
(`r = r * norm`), `support`, which the square and the product in the output term saved for backward,
is never touched, so backward works on both arms. The asserts train with and without self-loops and check every weight gets a non-zero gradient and
that the loss falls.
"""
import torch
import torch.nn.functional as F


def graph_layer(h, adj, weight, self_weight=None):
    support = F.softplus(adj @ (h @ weight))
    out = support.pow(2).mean(dim=1, keepdim=True) * support
    if self_weight is not None:
        r = support + h @ self_weight
    else:
        r = support
    norm = 1.0 / adj.sum(dim=1, keepdim=True)
    r = r * norm
    return out + r


def init_params(d_in, d_hid, with_self_loops):
    g = torch.Generator().manual_seed(1)
    params = {
        "w1": (torch.randn(d_in, d_hid, generator=g) * 0.3).requires_grad_(),
        "w2": (torch.randn(d_hid, 1, generator=g) * 0.3).requires_grad_(),
    }
    if with_self_loops:
        params["s1"] = (torch.randn(d_in, d_hid, generator=g) * 0.3).requires_grad_()
    return params


def predict(params, x, adj):
    h = graph_layer(x, adj, params["w1"], params.get("s1"))
    return h @ params["w2"]


def main():
    torch.manual_seed(0)
    torch.set_num_threads(1)
    n, d = 30, 5
    adj = (torch.rand(n, n) < 0.2).float()
    adj = ((adj + adj.T + torch.eye(n)) > 0).float()
    x = torch.randn(n, d)
    y = adj @ x[:, :1] / adj.sum(1, keepdim=True)

    for with_self_loops in (True, False):
        params = init_params(d, 8, with_self_loops)
        opt = torch.optim.Adam(params.values(), lr=2e-2)
        losses = []
        for step in range(60):
            opt.zero_grad()
            loss = F.mse_loss(predict(params, x, adj), y)
            loss.backward()
            if step == 0:
                for name, p in params.items():
                    assert p.grad is not None and p.grad.abs().sum() > 0, name
            opt.step()
            losses.append(loss.item())
        assert losses[-1] < losses[0], with_self_loops
        print("self_loops=%s loss %.4f -> %.4f" % (with_self_loops, losses[0], losses[-1]))


if __name__ == "__main__":
    main()
