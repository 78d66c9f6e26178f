"""
expect: none
dynamic: dismiss
source: https://github.com/PreferredAI/cornac/pull/574

Cornac's GRU4Rec port trains with session-parallel mini-batches: the GRU hidden
state is carried from one mini-batch to the next, and after each update the
rows of sessions that just ended are zeroed in place (H[mask] = 0) and the
state is detached in place (H.detach_()). That looks like an in-place edit of a
graph tensor and a cut, but both happen after backward()/step(), so the next
step only starts a fresh graph from a constant state (truncated BPTT by
design). The asserts show every step gets gradients into the GRU and the item
embeddings, no retained graph is needed, and next-item loss goes down.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class GRU4Rec(nn.Module):
    def __init__(self, n_items=30, dim=24):
        super().__init__()
        self.emb = nn.Embedding(n_items, dim)
        self.cell = nn.GRUCell(dim, dim)
        self.out = nn.Linear(dim, n_items)

    def forward(self, items, H):
        H = self.cell(self.emb(items), H)
        return self.out(H), H


class SessionParallelLoader:
    """Each lane walks through one session; when it ends, the next one starts."""

    def __init__(self, n_lanes=8, n_items=30, seed=0):
        self.g = torch.Generator().manual_seed(seed)
        self.n_items = n_items
        self.lanes = [self._new_session() for _ in range(n_lanes)]
        self.pos = [0] * n_lanes

    def _new_session(self):
        start = int(torch.randint(0, self.n_items, (1,), generator=self.g))
        length = int(torch.randint(3, 8, (1,), generator=self.g))
        return [(start + 3 * k) % self.n_items for k in range(length)]  # learnable pattern

    def next_batch(self):
        inp, tgt, ended = [], [], []
        for i, s in enumerate(self.lanes):
            inp.append(s[self.pos[i]]); tgt.append(s[self.pos[i] + 1])
            self.pos[i] += 1
            if self.pos[i] + 1 >= len(s):
                self.lanes[i] = self._new_session(); self.pos[i] = 0
                ended.append(i)
        return torch.tensor(inp), torch.tensor(tgt), torch.tensor(ended, dtype=torch.long)


def train(steps=200):
    model = GRU4Rec()
    opt = torch.optim.Adam(model.parameters(), lr=0.02)
    loader = SessionParallelLoader()
    H = torch.zeros(8, 24)
    losses, grads_ok = [], True
    for step in range(steps):
        items, targets, ended = loader.next_batch()
        logits, H = model(items, H)
        loss = F.cross_entropy(logits, targets)
        opt.zero_grad()
        loss.backward()
        if step > 0:   # carried state is non-zero from the second step on
            grads_ok &= model.cell.weight_hh.grad.abs().sum().item() > 0
        grads_ok &= model.emb.weight.grad.abs().sum().item() > 0
        opt.step()
        # reset finished sessions and cut history for the next mini-batch
        if len(ended):
            H[ended, :] = 0
        H.detach_()
        losses.append(loss.item())
    return losses, grads_ok, H


if __name__ == "__main__":
    losses, grads_ok, H = train()
    first = sum(losses[:30]) / 30
    last = sum(losses[-30:]) / 30
    print("loss first/last 30 steps:", first, last)
    assert grads_ok                       # every step trained GRU and embeddings
    assert H.grad_fn is None and not H.requires_grad
    assert last < first * 0.6             # next-item prediction was learned
    print("OK")
