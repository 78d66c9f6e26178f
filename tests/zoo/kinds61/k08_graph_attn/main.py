"""
expect: GL001 layers.py:10
dynamic: confirm
source: none, invented

Node classification on a synthetic two-community graph with a small GAT-like network. `NodeClassifier`
(layers.py) embeds the node features, then calls the helper `attend_neighbours`, which scores every edge
with the learned `edge_scorer` MLP and averages neighbour embeddings with the softmaxed scores; the pooled
neighbourhood is concatenated with the node embedding and fed to the next layers. The helper evaluates
the scorer inside `with torch.no_grad():` - a layer in the middle of the model, fed by the model's own
activations, whose output feeds later layers - so the attention logits are constants to autograd and the
scorer, although in the Adam optimizer, never learns. The asserts show every `edge_scorer` parameter keeps
`grad is None` and its initial values while `lin_in`/`lin_out` train; `NodeClassifierPlain`, which
computes the scores with grad enabled, trains the scorer.
"""
import torch
import torch.nn.functional as F

from layers import NodeClassifier, NodeClassifierPlain

torch.manual_seed(0)
torch.set_num_threads(1)


def two_communities(n=40, p_in=0.3, p_out=0.03):
    labels = torch.arange(n) % 2
    same = labels[:, None] == labels[None, :]
    probs = torch.where(same, torch.tensor(p_in), torch.tensor(p_out))
    adj = (torch.rand(n, n) < probs).float()
    adj = ((adj + adj.t()) > 0).float()
    adj.fill_diagonal_(1.0)
    x = torch.randn(n, 6) + labels[:, None].float() * 0.5
    return x, adj, labels


def fit(model_cls, epochs=60):
    torch.manual_seed(0)
    x, adj, labels = two_communities()
    model = model_cls(6, 16, 2)
    opt = torch.optim.Adam(model.parameters(), lr=5e-3)
    scorer0 = [p.detach().clone() for p in model.edge_scorer.parameters()]
    lin0 = model.lin_in.weight.detach().clone()
    for _ in range(epochs):
        loss = F.cross_entropy(model(x, adj), labels)
        opt.zero_grad()
        loss.backward()
        opt.step()
    scorer_grads = [p.grad for p in model.edge_scorer.parameters()]
    scorer_moved = any(not torch.equal(a, p.detach()) for a, p in zip(scorer0, model.edge_scorer.parameters()))
    lin_moved = not torch.equal(lin0, model.lin_in.weight.detach())
    return scorer_grads, scorer_moved, lin_moved


if __name__ == "__main__":
    grads, scorer_moved, lin_moved = fit(NodeClassifier)
    assert all(g is None for g in grads)
    assert not scorer_moved and lin_moved

    grads, scorer_moved, lin_moved = fit(NodeClassifierPlain)
    assert all(g is not None for g in grads)
    assert scorer_moved and lin_moved
    print("k08: edge scorer trains only without the no_grad block")
