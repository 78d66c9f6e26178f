"""
expect: none
dynamic: dismiss
source: https://github.com/shenyangHuang/TGB/pull/118

Temporal link prediction in the style of the TGB/TGN examples: a graph encoder does
mean-aggregation message passing over the edges seen so far, a link predictor scores
positive and negative destination nodes, and each batch is trained with BCE. After the
optimizer step the loop accumulates `total_loss += float(loss) * n` and reports the epoch
mean via `torch.tensor(batch_losses).mean()`. Both only read values out for logging after
the backward; nothing is trained through them (the PR just silenced the
"converting a tensor with requires_grad=True to a scalar" warning). The program asserts
every parameter receives a gradient and moves, and that the logged value matches.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

NUM_NODES, DIM = 30, 16


class GraphEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.node_emb = nn.Embedding(NUM_NODES, DIM)
        self.lin_self = nn.Linear(DIM, DIM)
        self.lin_neigh = nn.Linear(DIM, DIM)

    def forward(self, edge_index):
        x = self.node_emb.weight
        src, dst = edge_index
        agg = torch.zeros_like(x).index_add(0, dst, x[src])
        deg = torch.zeros(NUM_NODES).index_add(0, dst, torch.ones(dst.shape[0])).clamp(min=1)
        return F.relu(self.lin_self(x) + self.lin_neigh(agg / deg[:, None]))


class LinkPredictor(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Sequential(nn.Linear(2 * DIM, DIM), nn.ReLU(), nn.Linear(DIM, 1))

    def forward(self, z_src, z_dst):
        return self.lin(torch.cat([z_src, z_dst], dim=-1)).squeeze(-1)


def make_stream(n_events=200):
    src = torch.randint(0, NUM_NODES, (n_events,))
    dst = (src * 7 + torch.randint(0, 3, (n_events,))) % NUM_NODES
    return src, dst


encoder, predictor = GraphEncoder(), LinkPredictor()
params = list(encoder.parameters()) + list(predictor.parameters())
optimizer = torch.optim.Adam(params, lr=1e-2)
src_all, dst_all = make_stream()
before = [p.detach().clone() for p in params]

total_loss, total_events, batch_losses = 0.0, 0, []
history = torch.empty(2, 0, dtype=torch.long)
for start in range(0, 200, 40):
    src, dst = src_all[start:start + 40], dst_all[start:start + 40]
    neg_dst = torch.randint(0, NUM_NODES, dst.shape)
    z = encoder(history if history.shape[1] else torch.stack([src, dst]))
    pos_out, neg_out = predictor(z[src], z[dst]), predictor(z[src], z[neg_dst])
    loss = F.binary_cross_entropy_with_logits(pos_out, torch.ones_like(pos_out))
    loss = loss + F.binary_cross_entropy_with_logits(neg_out, torch.zeros_like(neg_out))
    optimizer.zero_grad()
    loss.backward()
    for p in params:
        assert p.grad is not None and p.grad.abs().sum() > 0
    optimizer.step()
    total_loss += float(loss) * src.shape[0]
    total_events += src.shape[0]
    batch_losses.append(float(loss))
    history = torch.cat([history, torch.stack([src, dst])], dim=1)

epoch_loss = torch.tensor(batch_losses).mean()
assert abs(epoch_loss.item() - total_loss / total_events) < 1e-5
assert all(not torch.equal(a, p) for a, p in zip(before, params))

print("OK")
