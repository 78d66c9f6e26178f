"""
expect: none
dynamic: dismiss
source: https://github.com/luogen1996/LaVIN/issues/32

A reader of LaVIN's training loop asked whether gradient accumulation is broken because
loss.backward() is called for each micro-batch without retain_graph=True and the optimizer
only steps every accum_iter iterations. It is not: each micro-batch builds a fresh graph,
and backward() adds its gradients into .grad, which is exactly accumulation. This program
mirrors that loop (frozen backbone, trainable adapters, loss / accum_iter). The asserts
show the accumulated gradient equals the gradient of the averaged loss over the window,
the graph size per micro-batch stays constant, the adapters train and the loss falls.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class AdapterBlock(nn.Module):
    def __init__(self, dim=32, r=4):
        super().__init__()
        self.frozen = nn.Linear(dim, dim)                       # pretrained LLaMA weight
        self.down, self.up = nn.Linear(dim, r), nn.Linear(r, dim)
        self.frozen.requires_grad_(False)

    def forward(self, x):
        return F.gelu(self.frozen(x)) + self.up(F.silu(self.down(x)))


class TinyLaVIN(nn.Module):
    def __init__(self, vocab=40, dim=32):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.embed.requires_grad_(False)
        self.blocks = nn.Sequential(AdapterBlock(dim), AdapterBlock(dim))
        self.lm_head = nn.Linear(dim, vocab)
        self.lm_head.requires_grad_(False)

    def forward(self, tokens, labels):
        logits = self.lm_head(self.blocks(self.embed(tokens)))
        return F.cross_entropy(logits.flatten(0, 1), labels.flatten())


def graph_nodes(t):
    seen, stack = set(), [t.grad_fn]
    while stack:
        fn = stack.pop()
        if fn is None or fn in seen:
            continue
        seen.add(fn)
        stack.extend(nxt for nxt, _ in fn.next_functions)
    return len(seen)


def train_one_epoch(model, batches, optimizer, accum_iter):
    sizes, losses = [], []
    optimizer.zero_grad()
    for data_iter_step, (examples, labels) in enumerate(batches):
        loss = model(examples, labels)
        losses.append(loss.item())
        loss = loss / accum_iter
        sizes.append(graph_nodes(loss))
        loss.backward()
        if (data_iter_step + 1) % accum_iter == 0:
            optimizer.step()
            optimizer.zero_grad()
    return sizes, losses


batches = [(torch.randint(0, 40, (4, 6)), torch.randint(0, 40, (4, 6))) for _ in range(4)]
model = TinyLaVIN()
trainable = [p for p in model.parameters() if p.requires_grad]

# accumulated gradient over a window == gradient of the mean loss of that window
for p in trainable:
    p.grad = None
for ex, lab in batches:
    (model(ex, lab) / len(batches)).backward()
acc = [p.grad.clone() for p in trainable]
for p in trainable:
    p.grad = None
torch.stack([model(ex, lab) for ex, lab in batches]).mean().backward()
assert all(torch.allclose(a, p.grad, atol=1e-6) for a, p in zip(acc, trainable))

optimizer = torch.optim.AdamW(trainable, lr=3e-3)
adapter_before = model.blocks[0].up.weight.detach().clone()
frozen_before = model.blocks[0].frozen.weight.detach().clone()
first = last = None
for epoch in range(30):
    sizes, losses = train_one_epoch(model, batches, optimizer, accum_iter=2)
    assert len(set(sizes)) == 1, "each micro-batch has a fresh, same-size graph"
    first = first if first is not None else sum(losses) / len(losses)
    last = sum(losses) / len(losses)
assert not torch.equal(model.blocks[0].up.weight, adapter_before), "adapters train"
assert torch.equal(model.blocks[0].frozen.weight, frozen_before), "backbone stays frozen"
assert last < first, "loss falls"
print(f"ok: accumulation without retain_graph works; loss {first:.3f} -> {last:.3f}")
