"""
expect: none
dynamic: dismiss
source: https://github.com/KevinMusgrave/pytorch-metric-learning/issues/421

A user saw RAM grow while training with CrossBatchMemory (XBM) and suspected the memory queue.
The maintainer points out the queue has a fixed size and "the input tensors are always detached
before being added to memory": the embeddings of past batches are stored as constants, the
contrastive loss pairs the current batch (with its graph) against the queue, and nothing links
one iteration's graph to the next. This program rebuilds an XBM-style loss wrapper around a
small embedding net on synthetic classes; the asserts show the queue entries carry no graph,
the embedding net gets gradients and trains (loss falls), and the graph reached by backward has
the same size at every iteration even though the queue keeps state across iterations.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def graph_size(t):
    seen, stack = set(), [t.grad_fn]
    while stack:
        fn = stack.pop()
        if fn is None or fn in seen:
            continue
        seen.add(fn)
        stack.extend(n for n, _ in fn.next_functions)
    return len(seen)


class CrossBatchMemory(nn.Module):
    def __init__(self, dim, memory_size=64, margin=0.5):
        super().__init__()
        self.register_buffer("embedding_memory", torch.zeros(memory_size, dim))
        self.register_buffer("label_memory", torch.full((memory_size,), -1, dtype=torch.long))
        self.queue_idx, self.margin = 0, margin

    def add_to_memory(self, emb, labels):
        idx = (torch.arange(len(emb)) + self.queue_idx) % len(self.embedding_memory)
        self.embedding_memory[idx] = emb.detach()
        self.label_memory[idx] = labels
        self.queue_idx = (self.queue_idx + len(emb)) % len(self.embedding_memory)

    def forward(self, emb, labels):
        emb = F.normalize(emb, dim=1)
        self.add_to_memory(emb, labels)
        valid = self.label_memory >= 0
        ref, ref_labels = self.embedding_memory[valid], self.label_memory[valid]
        sim = emb @ ref.T
        pos = labels[:, None] == ref_labels[None, :]
        pos_loss = ((1 - sim) * pos).sum() / pos.sum().clamp(min=1)
        neg_loss = (F.relu(sim - self.margin) * ~pos).sum() / (~pos).sum().clamp(min=1)
        return pos_loss + neg_loss


centers = torch.randn(5, 12) * 2
embedder = nn.Sequential(nn.Linear(12, 32), nn.ReLU(), nn.Linear(32, 8))
xbm = CrossBatchMemory(8)
opt = torch.optim.Adam(embedder.parameters(), lr=1e-2)
sizes, losses = [], []
for it in range(40):
    labels = torch.randint(0, 5, (16,))
    x = centers[labels] + torch.randn(16, 12) * 0.5
    loss = xbm(embedder(x), labels)
    assert not xbm.embedding_memory.requires_grad
    opt.zero_grad()
    loss.backward()
    assert embedder[0].weight.grad.abs().sum() > 0
    opt.step()
    sizes.append(graph_size(loss))
    losses.append(loss.item())

assert len(set(sizes)) == 1, sizes
assert sum(losses[-5:]) < sum(losses[:5])
print(f"p19 ok: XBM trains ({losses[0]:.3f} -> {losses[-1]:.3f}), graph size constant {sizes[0]}")
