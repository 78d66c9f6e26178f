"""
expect: none
dynamic: dismiss
source: none, invented

Graphs / self-supervised node representation learning in the BGRL style. The
GraphBootstrap model has an online GCN encoder with a predictor and an EMA
target encoder. `target_embedding` is decorated with `@torch.no_grad()` and its
result is used by the same class's `compute_loss`, but only as the regression
target: the target encoder is updated by `update_target` (EMA), never by
gradient, and stopping the gradient there is the method's design. The online
encoder and predictor, which are what the loss should train, are recorded. The
backward is in trainer.py. The asserts show the online encoder and predictor
get gradients and change, the target has no gradients but still moves by EMA,
and the loss goes down.
"""
import copy

import torch

from model import GraphBootstrap
from trainer import train_bootstrap


def random_graph(n=120, d=24, n_comm=3, seed=0):
    g = torch.Generator().manual_seed(seed)
    comm = torch.randint(0, n_comm, (n,), generator=g)
    same = (comm[:, None] == comm[None, :]).float()
    prob = 0.15 * same + 0.01 * (1 - same)
    adj = (torch.rand(n, n, generator=g) < prob).float()
    adj = ((adj + adj.T) > 0).float() + torch.eye(n)
    deg = adj.sum(1)
    adj_norm = adj / torch.sqrt(deg[:, None] * deg[None, :])
    centres = torch.randn(n_comm, d, generator=g)
    x = centres[comm] + 0.8 * torch.randn(n, d, generator=g)
    return x, adj_norm


def main():
    torch.manual_seed(0)
    x, adj_norm = random_graph()
    model = GraphBootstrap(x.shape[1])
    start = copy.deepcopy(model)
    losses = train_bootstrap(model, x, adj_norm)

    assert all(p.grad is not None for p in model.online.parameters())
    assert all(p.grad is not None for p in model.predictor.parameters())
    assert all(p.grad is None for p in model.target.parameters())
    assert not torch.equal(start.online.lin1.weight, model.online.lin1.weight)
    assert not torch.equal(start.predictor[0].weight, model.predictor[0].weight)
    assert not torch.equal(start.target.lin1.weight, model.target.lin1.weight)  # EMA moved it
    assert sum(losses[-5:]) < sum(losses[:5]), losses
    print(f"k11 ok: online nets train, target via EMA only; loss {losses[0]:.3f} -> {losses[-1]:.3f}")


if __name__ == "__main__":
    main()
