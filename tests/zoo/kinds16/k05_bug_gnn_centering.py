"""
expect: GL004 64
dynamic: confirm
source: kind 5

A node-classification GNN has a FeatureCentering member that keeps a running
mean of aggregated node features on itself (self.trace = decay * self.trace +
h.mean(0)) without detaching. Plain backward() fails on the second step, so
the training loop calls loss.backward(retain_graph=True) every step; the
trace now chains every past step's graph. The asserts show the plain loop
raises, and that the node count reachable from trace.grad_fn grows each step.
"""
import torch
import torch.nn as nn


def graph_size(t):
    seen, stack = set(), [t.grad_fn]
    while stack:
        fn = stack.pop()
        if fn is None or fn in seen:
            continue
        seen.add(fn)
        stack.extend(nxt for nxt, _ in fn.next_functions)
    return len(seen)


class FeatureCentering(nn.Module):
    def __init__(self, dim, decay=0.9):
        super().__init__()
        self.decay = decay
        self.trace = torch.zeros(dim)

    def forward(self, h):
        self.trace = self.decay * self.trace + (1 - self.decay) * h.mean(0)
        return h - self.trace


class MeanAggGNN(nn.Module):
    def __init__(self, n_nodes, dim=16, n_classes=3):
        super().__init__()
        self.node_emb = nn.Embedding(n_nodes, dim)
        self.center = FeatureCentering(dim)
        self.out = nn.Linear(dim, n_classes)

    def forward(self, adj_norm, nodes):
        h = adj_norm @ self.node_emb(nodes)
        return self.out(torch.relu(self.center(h)))


def train(steps, retain):
    torch.manual_seed(7)
    n = 40
    adj = (torch.rand(n, n) < 0.1).float() + torch.eye(n)
    adj_norm = adj / adj.sum(1, keepdim=True)
    labels = torch.randint(0, 3, (n,))
    model = MeanAggGNN(n)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    sizes = []
    for _ in range(steps):
        opt.zero_grad()
        loss = nn.functional.cross_entropy(model(adj_norm, torch.arange(n)), labels)
        if retain:
            loss.backward(retain_graph=True)
        else:
            loss.backward()
        opt.step()
        sizes.append(graph_size(model.center.trace))
    return sizes


if __name__ == "__main__":
    try:
        train(3, retain=False)
        raise AssertionError("plain backward should fail on step 2")
    except RuntimeError as e:
        assert "backward through the graph a second time" in str(e)
    sizes = train(8, retain=True)
    assert all(b > a for a, b in zip(sizes, sizes[1:])), sizes
    print("ok: undetached trace + retain_graph, graph grows:", sizes)
