"""
expect: none
dynamic: dismiss
source: https://github.com/bnu-wangxun/Deep_Metric/issues/45

Cross-batch memory (XBM) for metric learning: each step the batch embeddings are
enqueued, detached, into a fixed-size ring buffer by slice assignment, and a second
contrastive loss compares the live batch embeddings against everything in the buffer.
The buffer entries are constants on purpose (gradients only flow into the current
batch, through the `feats @ memory.T` similarities); the in-place slice writes touch a
buffer that no earlier, still-pending graph saved. The program asserts the embedding
network gets non-zero gradients that include the memory term (they differ from the
batch-only loss) and keeps training over several steps while the buffer fills.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class XBM:
    def __init__(self, size, dim):
        self.feats = torch.zeros(size, dim)
        self.targets = torch.full((size,), -1, dtype=torch.long)
        self.ptr = 0
        self.size = size

    def enqueue_dequeue(self, feats, targets):
        n = feats.shape[0]
        end = self.ptr + n
        self.feats[self.ptr:end] = feats
        self.targets[self.ptr:end] = targets
        self.ptr = end % self.size

    def get(self):
        valid = self.targets >= 0
        return self.feats[valid], self.targets[valid]


def contrastive_loss(feats, targets, ref_feats, ref_targets, margin=0.5):
    sim = feats @ ref_feats.T
    pos = targets[:, None] == ref_targets[None, :]
    pos_loss = ((1 - sim) * pos).sum() / pos.sum().clamp(min=1)
    neg_loss = (F.relu(sim - margin) * ~pos).sum() / (~pos).sum().clamp(min=1)
    return pos_loss + neg_loss


embedder = nn.Sequential(nn.Linear(12, 32), nn.ReLU(), nn.Linear(32, 8))
optimizer = torch.optim.SGD(embedder.parameters(), lr=0.1)
xbm = XBM(size=48, dim=8)
centers = torch.randn(4, 12) * 2

for step in range(6):
    targets = torch.randint(0, 4, (16,))
    feats = F.normalize(embedder(centers[targets] + torch.randn(16, 12)), dim=1)
    loss_batch = contrastive_loss(feats, targets, feats, targets)
    xbm.enqueue_dequeue(feats.detach(), targets)
    mem_feats, mem_targets = xbm.get()
    loss = loss_batch + contrastive_loss(feats, targets, mem_feats, mem_targets)

    if step == 5:
        g_batch = torch.autograd.grad(loss_batch, embedder[0].weight, retain_graph=True)[0]
    optimizer.zero_grad()
    loss.backward()
    assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in embedder.parameters())
    assert not mem_feats.requires_grad
    optimizer.step()

assert not torch.allclose(g_batch, embedder[0].weight.grad)
assert xbm.get()[0].shape[0] == 48

print("OK")
