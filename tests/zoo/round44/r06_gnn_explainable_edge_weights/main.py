"""
expect: none
dynamic: dismiss
source: https://github.com/divelab/DIG/blob/07957e04444749a82e40e7f79055093722a13390/dig/xgraph/models/models.py

GNN layers written for an explainability benchmark (DIG xgraph style). Each
layer builds constant edge weights (GCN normalisation, or ones plus eps for
the self loops of GIN), detaches/clones them, marks them with
requires_grad_(True) and keeps them on the layer, and the GCN layer adds its
bias in place to the scatter-add output. None of this cuts the training
graph: the edge weights are constants that only exist so that an explainer
can read d(logit)/d(edge) after a backward pass, and the scatter output that
receives the in-place bias is not saved by any op. The asserts train a node
classifier (all weights get gradients, the loss falls) and then run one
explanation backward, checking that the edge weights get a non-zero saliency
and that edges farther than two hops from the node get none.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from layers import ExplainableGCNConv, ExplainableGINConv


class NodeClassifier(nn.Module):
    def __init__(self, in_dim, hidden, n_classes):
        super().__init__()
        self.conv1 = ExplainableGCNConv(in_dim, hidden)
        self.conv2 = ExplainableGINConv(nn.Sequential(nn.Linear(hidden, hidden), nn.ReLU(),
                                                      nn.Linear(hidden, n_classes)), eps=0.1)

    def forward(self, x, edge_index):
        return self.conv2(F.relu(self.conv1(x, edge_index)), edge_index)


def ring_of_cliques(n_groups=4, size=6):
    edges = []
    for g in range(n_groups):
        base = g * size
        for i in range(size):
            for j in range(size):
                if i != j:
                    edges.append((base + i, base + j))
        nxt = ((g + 1) % n_groups) * size
        edges += [(base, nxt), (nxt, base)]
    return torch.tensor(edges).t(), torch.arange(n_groups).repeat_interleave(size)


if __name__ == "__main__":
    torch.set_num_threads(1)
    torch.manual_seed(0)
    edge_index, labels = ring_of_cliques()
    x = F.one_hot(labels, 4).float() + 0.8 * torch.randn(labels.numel(), 4)
    model = NodeClassifier(4, 16, 4)
    opt = torch.optim.Adam(model.parameters(), lr=0.02)
    losses = []
    for _ in range(80):
        opt.zero_grad()
        loss = F.cross_entropy(model(x, edge_index), labels)
        loss.backward()
        for name, p in model.named_parameters():
            assert p.grad is not None and p.grad.abs().sum() > 0, name
        opt.step()
        losses.append(loss.item())
    assert losses[-1] < 0.3 * losses[0], (losses[0], losses[-1])

    node = 2
    model.zero_grad()
    logits = model(x, edge_index)
    logits[node, logits[node].argmax()].backward()
    ew = model.conv1.edge_weight
    assert ew.grad is not None and ew.grad.abs().sum() > 0
    src, dst = torch.cat([edge_index, torch.arange(24).repeat(2, 1)], dim=1)
    far = (src >= 12) & (src < 18) & (dst >= 12) & (dst < 18)  # inside the opposite clique
    assert ew.grad[far].abs().sum() == 0
    print(f"train loss {losses[0]:.3f} -> {losses[-1]:.3f}; edge saliency available for explanation")
