"""
expect: GL005 trainer.py:17
dynamic: confirm
source: none, invented

Node classification on a synthetic stochastic-block-model graph with a two-layer GCN and an auxiliary
link-prediction objective. trainer.py's `GraphTrainer` is handed the model, keeps an Adam optimizer over it,
and `optimize(loss)` does zero_grad / backward / clip / step. The script computes the node-classification loss
on the full graph and the link loss on an edge-dropped view (a second forward through the same GCN), calls
`trainer.optimize(node_loss)`, and then backpropagates `link_loss` to add its gradient. The link loss's graph
holds the GCN weights as they were before the trainer's `step()`, which updated them in place, so the second
backward raises "modified by an inplace operation". The asserts catch that error; with `link_after_step=True`
the link loss is computed after the node update and handed to the trainer as its own step, and the GCN
classifies the nodes well.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from trainer import GraphTrainer

torch.manual_seed(0)
torch.set_num_threads(1)

N_NODES, N_BLOCKS, FEAT = 120, 3, 16


def block_graph():
    blocks = torch.arange(N_NODES) % N_BLOCKS
    same = blocks[:, None] == blocks[None, :]
    prob = torch.where(same, torch.tensor(0.15), torch.tensor(0.01))
    adj = (torch.rand(N_NODES, N_NODES) < prob).float().triu(1)
    adj = adj + adj.t()
    feats = torch.randn(N_NODES, FEAT) + 0.3 * F.one_hot(blocks, FEAT).float()
    return feats, adj, blocks


def normalize(adj):
    a = adj + torch.eye(adj.shape[0])
    d = a.sum(1).rsqrt()
    return d[:, None] * a * d[None, :]


class GCN(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.lin1 = nn.Linear(FEAT, hidden)
        self.lin2 = nn.Linear(hidden, hidden)
        self.cls = nn.Linear(hidden, N_BLOCKS)

    def embed(self, x, a_hat):
        h = F.relu(a_hat @ self.lin1(x))
        return a_hat @ self.lin2(h)

    def forward(self, x, a_hat):
        return self.cls(F.relu(self.embed(x, a_hat)))


def link_loss(model, x, adj):
    kept = adj * (torch.rand_like(adj) > 0.2).float()
    kept = torch.maximum(kept.triu(1), kept.triu(1).t())
    z = model.embed(x, normalize(kept))
    pos = adj.nonzero()
    neg = torch.randint(0, N_NODES, pos.shape)
    score = lambda e: (z[e[:, 0]] * z[e[:, 1]]).sum(-1)
    return F.binary_cross_entropy_with_logits(score(pos), torch.ones(len(pos))) + \
        F.binary_cross_entropy_with_logits(score(neg), torch.zeros(len(neg)))


def run(link_after_step, epochs=100):
    torch.manual_seed(0)
    x, adj, y = block_graph()
    a_hat = normalize(adj)
    train_mask = torch.rand(N_NODES) < 0.3
    model = GCN()
    trainer = GraphTrainer(model)
    for epoch in range(epochs):
        node_loss = F.cross_entropy(model(x, a_hat)[train_mask], y[train_mask])
        if link_after_step:
            trainer.optimize(node_loss)
            trainer.optimize(0.5 * link_loss(model, x, adj))
        else:
            aux = 0.5 * link_loss(model, x, adj)
            trainer.optimize(node_loss)
            aux.backward()
    with torch.no_grad():
        pred = model(x, a_hat).argmax(1)
    return (pred[~train_mask] == y[~train_mask]).float().mean().item()


try:
    run(link_after_step=False, epochs=2)
    caught = None
except RuntimeError as e:
    caught = str(e)
assert caught is not None and "modified by an inplace operation" in caught, caught

acc = run(link_after_step=True)
assert acc > 0.8, acc
print(f"ok: backward after the trainer's step hits the in-place check (as claimed); sequential updates reach test accuracy {acc:.2f}")
