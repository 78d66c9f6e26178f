"""
expect: GL005 34
dynamic: confirm
source: none, invented

Batch-hard triplet loss for a small embedding network on clustered synthetic features. The loss
class takes `dist_fn=pairwise_dist` as a default constructor argument, keeps it on `self` and calls
it in `forward`. `pairwise_dist` takes the square root of the squared distances and then zeroes the
diagonal in place (`res[idx, idx] = 0`). `sqrt` saved its output for the backward, so writing into
`res` makes `loss.backward()` raise "modified by an inplace operation". The asserts catch it; the
same loss built with `dist_fn=masked_pairwise_dist` (diagonal removed by a multiplication) trains
the embedding and separates the clusters.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

N_IDS, DIM = 8, 32
CENTERS = 3.0 * torch.randn(N_IDS, DIM)


def sample(per_id=4):
    labels = torch.arange(N_IDS).repeat_interleave(per_id)
    return CENTERS[labels] + 2.0 * torch.randn(labels.numel(), DIM), labels


def pairwise_dist(emb):
    sq = (emb[:, None, :] - emb[None, :, :]).pow(2).sum(-1)
    res = (sq + 1e-12).sqrt()
    idx = torch.arange(emb.size(0))
    res[idx, idx] = 0
    return res


def masked_pairwise_dist(emb):
    sq = (emb[:, None, :] - emb[None, :, :]).pow(2).sum(-1)
    off_diag = 1.0 - torch.eye(emb.size(0))
    return (sq + 1e-12).sqrt() * off_diag


class BatchHardTripletLoss(nn.Module):
    def __init__(self, margin=0.5, dist_fn=pairwise_dist):
        super().__init__()
        self.margin = margin
        self.dist_fn = dist_fn

    def forward(self, emb, labels):
        d = self.dist_fn(emb)
        same = labels[:, None] == labels[None, :]
        hardest_pos = (d * same.float()).max(1).values
        hardest_neg = d.masked_fill(same, float("inf")).min(1).values
        return F.relu(hardest_pos - hardest_neg + self.margin).mean()


def fit(criterion, steps):
    embedder = nn.Sequential(nn.Linear(DIM, 64), nn.ReLU(), nn.Linear(64, 16))
    opt = torch.optim.Adam(embedder.parameters(), lr=1e-3)
    first = None
    for _ in range(steps):
        x, y = sample()
        loss = criterion(F.normalize(embedder(x), dim=1), y)
        first = loss.item() if first is None else first
        opt.zero_grad()
        loss.backward()
        opt.step()
    return first, loss.item()


if __name__ == "__main__":
    err = None
    try:
        fit(BatchHardTripletLoss(), 1)
    except RuntimeError as e:
        err = str(e)
    assert err is not None and "modified by an inplace operation" in err, err
    first, last = fit(BatchHardTripletLoss(dist_fn=masked_pairwise_dist), 200)
    assert last < first, (first, last)
    print("k07_batch_hard_triplet: all checks passed")
