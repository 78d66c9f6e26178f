"""expect: none
dynamic: dismiss
source: https://github.com/d-ailin/GDN/issues/70

Look-alike. GDN (graph deviation network, multivariate time-series anomaly
detection) learns one embedding per sensor and builds the sensor graph from
the top-k cosine similarities of those embeddings, computed on
`all_embeddings.detach().clone()`. An issue asked why the embeddings are
detached, since the graph structure then gets no gradient. The author
explained that the top-k graph is discrete anyway and that the embeddings are
still trained through the attention and the output layer, where the very
same embeddings are used without detach. So the detach only cuts the
(non-differentiable) structure-learning path; every parameter, including
the embedding table, still gets a gradient. Nothing to fix.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class EmbeddingAttentionLayer(nn.Module):
    def __init__(self, in_dim, out_dim, emb_dim):
        super().__init__()
        self.lin = nn.Linear(in_dim, out_dim, bias=False)
        self.att = nn.Linear(2 * (out_dim + emb_dim), 1, bias=False)

    def forward(self, x, emb, neighbours):          # x: (B, N, W), emb: (N, D), neighbours: (N, k)
        h = self.lin(x)                              # (B, N, F)
        g = torch.cat([h, emb.expand(h.shape[0], -1, -1)], -1)          # (B, N, F+D)
        g_i = g.unsqueeze(2).expand(-1, -1, neighbours.shape[1], -1)    # (B, N, k, F+D)
        g_j = g[:, neighbours]                                           # (B, N, k, F+D)
        alpha = torch.softmax(F.leaky_relu(self.att(torch.cat([g_i, g_j], -1)), 0.2), dim=2)
        return F.relu((alpha * h[:, neighbours]).sum(2))                # (B, N, F)


class GDN(nn.Module):
    def __init__(self, node_num, window, dim=16, topk=3):
        super().__init__()
        self.topk = topk
        self.embedding = nn.Embedding(node_num, dim)
        self.gnn = EmbeddingAttentionLayer(window, dim, dim)
        self.out_layer = nn.Linear(dim, 1)
        self.learned_graph = None

    def forward(self, data):
        x = data.clone().detach()
        node_num = x.shape[1]
        all_embeddings = self.embedding(torch.arange(node_num))
        weights = all_embeddings.detach().clone()
        cos = (weights @ weights.t()) / (weights.norm(dim=-1, keepdim=True) * weights.norm(dim=-1) + 1e-8)
        topk_idx = torch.topk(cos, self.topk, dim=-1).indices
        self.learned_graph = topk_idx
        gcn_out = self.gnn(x, all_embeddings, topk_idx)
        out = gcn_out * self.embedding(torch.arange(node_num))
        return self.out_layer(F.relu(out)).squeeze(-1)                 # (B, N)


def train_step(model, optimizer, windows, next_values):
    optimizer.zero_grad()
    loss = F.mse_loss(model(windows), next_values)
    loss.backward()
    optimizer.step()
    return loss.item()


torch.manual_seed(0)
model = GDN(node_num=6, window=5)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
windows, next_values = torch.randn(4, 6, 5), torch.randn(4, 6)
train_step(model, optimizer, windows, next_values)

for name, p in model.named_parameters():
    assert p.grad is not None and p.grad.abs().sum() > 0, name
print("OK")
