"""expect: GL004 52, GL005 53
dynamic: confirm
source: https://blog.youkuaiyun.com/windhawk_fly/article/details/143405685

A word-level LSTM language model is trained on consecutive chunks of a corpus and, as in the linked
post, the (h0, c0) state returned for one batch is fed straight into the next one without detaching it.
The second backward() then tried to go through the previous batch's graph ("backward through the graph
a second time"), and the post's fix was loss.backward(retain_graph=True). That keeps every batch's
graph alive and chains it to the next one, so each backward walks back into earlier iterations; and
because optimizer.step() has updated the LSTM weights that those old nodes saved, the next backward
fails with "modified by an inplace operation" (the error the post ran into next). The asserts count
the autograd nodes reachable from the loss, which grow from one batch to the next, check that the
second backward raises the in-place error, and show that detaching the carried state keeps the graph
size constant and trains normally.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class WordLM(nn.Module):
    def __init__(self, vocab=50, emb=16, hidden=32):
        super().__init__()
        self.emb = nn.Embedding(vocab, emb)
        self.lstm = nn.LSTM(emb, hidden, batch_first=True)
        self.out = nn.Linear(hidden, vocab)

    def forward(self, x, h0, c0):
        y, (h, c) = self.lstm(self.emb(x), (h0, c0))
        return self.out(y), h, c


def graph_size(fn):
    seen, stack = set(), [fn]
    while stack:
        node = stack.pop()
        if node is None or node in seen:
            continue
        seen.add(node)
        stack.extend(n for n, _ in node.next_functions)
    return len(seen)


def train_carried(model, optimizer, batches, sizes):
    h0 = torch.zeros(1, batches[0][0].shape[0], 32)
    c0 = torch.zeros(1, batches[0][0].shape[0], 32)
    for x, y in batches:
        optimizer.zero_grad()
        logits, h0, c0 = model(x, h0, c0)
        loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), y.reshape(-1))
        sizes.append(graph_size(loss.grad_fn))
        loss.backward(retain_graph=True)
        optimizer.step()


def train_detached(model, optimizer, batches, sizes):
    h0 = torch.zeros(1, batches[0][0].shape[0], 32)
    c0 = torch.zeros(1, batches[0][0].shape[0], 32)
    losses = []
    for x, y in batches:
        optimizer.zero_grad()
        logits, h, c = model(x, h0, c0)
        loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), y.reshape(-1))
        sizes.append(graph_size(loss.grad_fn))
        loss.backward()
        optimizer.step()
        h0, c0 = h.detach(), c.detach()
        losses.append(loss.item())
    return losses


torch.manual_seed(0)
torch.set_num_threads(1)

corpus = torch.randint(0, 50, (8, 121))                    # 8 parallel streams
batches = [(corpus[:, i:i + 20], corpus[:, i + 1:i + 21]) for i in range(0, 100, 20)]

model = WordLM()
sizes = []
try:
    train_carried(model, torch.optim.SGD(model.parameters(), lr=0.5), batches, sizes)
    raise AssertionError("expected the carried graph to break the second backward")
except RuntimeError as err:
    assert "modified by an inplace operation" in str(err)
assert len(sizes) == 2 and sizes[1] > sizes[0]             # batch 2's graph reaches into batch 1's

torch.manual_seed(0)
model = WordLM()
sizes_ok = []
opt = torch.optim.SGD(model.parameters(), lr=0.5)
epoch_means = []
for _ in range(5):
    losses = train_detached(model, opt, batches, sizes_ok)
    epoch_means.append(sum(losses) / len(losses))
assert set(sizes_ok) == {sizes[0]}                         # constant graph per batch
assert epoch_means[-1] < epoch_means[0]

print("graph nodes per batch, carried:", sizes, "| detached:", sizes_ok[:3])
