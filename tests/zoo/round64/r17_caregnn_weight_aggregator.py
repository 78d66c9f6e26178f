"""
expect: none
dynamic: dismiss
source: https://github.com/YingtongDou/CARE-GNN/blob/a64ff7523e187a24251f7ca88435d2c9d8f7dcd9/layers.py#L150-L157

CARE-GNN detects fraudsters (Yelp spam reviews, Amazon users) on a multi-relation
graph. Its CARE-Weight inter-relation aggregator has two lines that look like
gradient killers: the per-relation neighbour embeddings are summed into a
buffer with `aggregated += neigh_h[r*n:(r+1)*n, :] * w[:, r]`, and the learned
relation weights are read out with
`F.softmax(torch.sum(self.alpha, dim=0), dim=0).tolist()`. Neither breaks
training. `aggregated` is a fresh torch.zeros buffer that no recorded op saved,
so accumulating into it in place is recorded as an add and gradients flow to
every term; the `.tolist()` copy is only printed (gem_weights), the embedding is
built from `w = F.softmax(alpha, dim=1)` itself. The reproduction trains the
aggregator plus a linear fraud classifier on a random 3-relation graph. The
asserts show alpha and the shared transform get non-zero gradients and move,
the logged weights are plain Python floats summing to 1, and the loss drops.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

N_NODES, FEAT, EMB, N_REL = 60, 8, 16, 3

features = torch.randn(N_NODES, FEAT)
labels = (features[:, 0] + 0.5 * features[:, 1] > 0.8).long()  # ~20% "fraud"
# three relations (e.g. same user / same product+star / same product+month)
adj = [(torch.rand(N_NODES, N_NODES) < p).float() for p in (0.05, 0.1, 0.2)]
adj = [a / a.sum(1, keepdim=True).clamp(min=1) for a in adj]


def weight_inter_agg(num_relations, self_feats, neigh_feats, embed_dim, weight, alpha, n):
    center_h = torch.mm(self_feats, weight)
    neigh_h = torch.mm(neigh_feats, weight)
    w = F.softmax(alpha, dim=1)
    aggregated = torch.zeros(size=(n, embed_dim))
    for r in range(num_relations):
        aggregated += neigh_h[r * n:(r + 1) * n, :] * w[:, r]
    return F.relu(center_h + aggregated)


class InterAgg(nn.Module):
    def __init__(self):
        super().__init__()
        self.weight = nn.Parameter(torch.empty(FEAT, EMB))
        nn.init.xavier_uniform_(self.weight)
        self.alpha = nn.Parameter(torch.empty(EMB, N_REL))
        nn.init.xavier_uniform_(self.alpha)
        self.weights_log = []

    def forward(self, nodes, train_flag=True):
        n = len(nodes)
        neigh_feats = torch.cat([a[nodes] @ features for a in adj], dim=0)  # intra-relation mean
        combined = weight_inter_agg(N_REL, features[nodes], neigh_feats, EMB,
                                    self.weight, self.alpha, n)
        gem_weights = F.softmax(torch.sum(self.alpha, dim=0), dim=0).tolist()
        if train_flag:
            self.weights_log.append(gem_weights)
        return combined


agg = InterAgg()
clf = nn.Linear(EMB, 2)
opt = torch.optim.Adam(list(agg.parameters()) + list(clf.parameters()), lr=1e-2)
alpha0 = agg.alpha.detach().clone()
weight0 = agg.weight.detach().clone()
class_w = torch.tensor([1.0, float((labels == 0).sum()) / float((labels == 1).sum().clamp(min=1))])

hist = []
for epoch in range(120):
    nodes = torch.randperm(N_NODES)[:32]
    emb = agg(nodes)
    loss = F.cross_entropy(clf(emb), labels[nodes], weight=class_w)
    opt.zero_grad()
    loss.backward()
    if epoch == 0:
        assert agg.alpha.grad is not None and agg.alpha.grad.abs().sum() > 0
        assert agg.weight.grad.abs().sum() > 0
    opt.step()
    hist.append(loss.item())

assert not torch.allclose(agg.alpha, alpha0)
assert not torch.allclose(agg.weight, weight0)
assert all(isinstance(v, float) for v in agg.weights_log[-1])
assert abs(sum(agg.weights_log[-1]) - 1.0) < 1e-5
assert sum(hist[-10:]) / 10 < 0.8 * sum(hist[:10]) / 10
print("relation weights learned:", [round(v, 3) for v in agg.weights_log[-1]],
      "loss %.3f -> %.3f" % (sum(hist[:10]) / 10, sum(hist[-10:]) / 10))
