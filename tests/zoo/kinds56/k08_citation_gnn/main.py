"""
expect: GL001 main.py:54
dynamic: confirm
source: none, invented

Semi-supervised node classification on a synthetic citation graph (stochastic block model with noisy
bag-of-words features, only 10% of nodes labelled).  `NodeClassifier` in gnn.py offers `forward`, a
`propagate` method (decorated with `@torch.no_grad()`, meant for caching node embeddings) and a
`classify` head.  To reuse the cached-embedding code path, the training step calls
`model.propagate(x, adj)` and then `model.classify(h)`; the message-passing layers therefore run
without a graph and only the linear head is ever trained.  The asserts show that the graph-conv
weights have no gradient and stay at their initial values, and that calling `model(x, adj)` instead
trains them and gives clearly higher accuracy on the unlabelled nodes.
"""
import torch
import torch.nn.functional as F

from gnn import NodeClassifier

torch.manual_seed(0)
torch.set_num_threads(1)


def block_graph(n_per=60, k=3, p_in=0.12, p_out=0.01, n_feats=40):
    n = n_per * k
    labels = torch.arange(k).repeat_interleave(n_per)
    same = labels[:, None] == labels[None, :]
    prob = torch.where(same, torch.tensor(p_in), torch.tensor(p_out))
    upper = torch.triu((torch.rand(n, n) < prob).float(), 1)
    adj = upper + upper.T
    deg = adj.sum(1).clamp(min=1)
    adj_norm = adj / deg[:, None]
    topic = torch.randn(k, n_feats)
    feats = 0.35 * topic[labels] + torch.randn(n, n_feats)
    train_mask = torch.rand(n) < 0.1
    return feats, adj_norm, labels, train_mask


def accuracy(logits, labels, mask):
    return (logits[mask].argmax(-1) == labels[mask]).float().mean().item()


def train(use_forward, epochs=100):
    torch.manual_seed(0)
    x, adj, y, train_mask = block_graph()
    model = NodeClassifier(x.shape[1], 32, 3)
    conv_start = {k: v.clone() for k, v in model.convs.state_dict().items()}
    opt = torch.optim.Adam(model.parameters(), lr=1e-2, weight_decay=5e-4)
    for epoch in range(epochs):
        model.train()
        if use_forward:
            logits = model(x, adj)
        else:
            h = model.propagate(x, adj)
            logits = model.classify(h)
        loss = F.cross_entropy(logits[train_mask], y[train_mask])
        opt.zero_grad()
        loss.backward()
        opt.step()
    conv_grads = [p.grad for p in model.convs.parameters()]
    conv_moved = any(not torch.equal(conv_start[k], v) for k, v in model.convs.state_dict().items())
    model.eval()
    with torch.no_grad():
        acc = accuracy(model(x, adj), y, ~train_mask)
    return conv_grads, conv_moved, acc


if __name__ == "__main__":
    grads, moved, acc_cached = train(use_forward=False)
    assert all(g is None for g in grads) and not moved
    grads, moved, acc_full = train(use_forward=True)
    assert moved and all(g is not None for g in grads)
    assert acc_full > acc_cached + 0.05, (acc_full, acc_cached)
    print(f"k08: propagate() path leaves graph convs untrained ({acc_cached:.2f}) vs forward ({acc_full:.2f})")
