"""
expect: GL001 43
dynamic: confirm
source: none, invented

A recommender-style encoder with a text tower and an item tower. Besides the main
rating loss, a helper `alignment_penalty(m, ...)` receives the whole model and adds a
consistency term: the item embedding is pushed through `m.item_proj` and detached to
serve as a fixed target, while the text side goes through `m.text_adapter`. `item_proj`
is registered with the optimizer but is used nowhere else, so its only use is behind the
`.detach()` and it never receives a gradient: it stays at its random initialisation. The
asserts show `item_proj.weight.grad is None` and its weights unchanged after several steps
in the buggy variant, while the fixed variant (the same term with the item-side projection
left attached, a symmetric alignment loss) trains it.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class TwoTower(nn.Module):
    def __init__(self, n_items=50, vocab=100, dim=16):
        super().__init__()
        self.item_emb = nn.Embedding(n_items, dim)
        self.text_emb = nn.EmbeddingBag(vocab, dim)
        self.text_adapter = nn.Linear(dim, dim)
        self.item_proj = nn.Linear(dim, dim)
        self.scorer = nn.Linear(2 * dim, 1)

    def forward(self, item_ids, tokens):
        iv = self.item_emb(item_ids)
        tv = self.text_emb(tokens)
        return self.scorer(torch.cat([iv, tv], dim=-1)).squeeze(-1), iv, tv


def alignment_penalty(m, item_vec, text_vec, fixed=False):
    if fixed:
        target = m.item_proj(item_vec)
    else:
        target = m.item_proj(item_vec).detach()
    pred = m.text_adapter(text_vec)
    return F.mse_loss(pred, target)


def train(fixed, steps=5):
    torch.manual_seed(0)
    model = TwoTower()
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    before = model.item_proj.weight.detach().clone()
    for _ in range(steps):
        items = torch.randint(0, 50, (8,))
        tokens = torch.randint(0, 100, (8, 6))
        ratings = torch.rand(8)
        score, iv, tv = model(items, tokens)
        loss = F.mse_loss(score, ratings) + 0.1 * alignment_penalty(model, iv, tv, fixed=fixed)
        opt.zero_grad()
        loss.backward()
        opt.step()
    return model, before


model, before = train(fixed=False)
assert model.item_proj.weight.grad is None
assert torch.equal(model.item_proj.weight, before)

model, before = train(fixed=True)
assert model.item_proj.weight.grad is not None
assert not torch.equal(model.item_proj.weight, before)
print("ok")
