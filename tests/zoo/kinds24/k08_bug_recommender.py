"""
expect: GL001 30
dynamic: confirm
source: kinds check 24, kind 8 (written for this check)

The biased matrix-factorisation model declares a per-item bias `nn.Parameter` that is meant to
be learned and is handed to Adam with the rest of `model.parameters()`, but the score reads
it as `self.item_bias.data[items]`, so the rating loss never reaches it. The models live in a
dict keyed by name. The asserts show the bias gets no gradient and is unchanged after the
steps while the embeddings move, and a separately written model trains its bias.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.set_num_threads(1)
torch.manual_seed(0)


class BiasedMF(nn.Module):
    def __init__(self, n_users, n_items, d=8):
        super().__init__()
        self.user = nn.Embedding(n_users, d)
        self.item = nn.Embedding(n_items, d)
        self.item_bias = nn.Parameter(torch.zeros(n_items))
        self.offset = nn.Parameter(torch.tensor(3.5))

    def forward(self, users, items):
        dot = (self.user(users) * self.item(items)).sum(-1)
        return dot + self.item_bias.data[items] + self.offset


class BiasedMFFixed(BiasedMF):
    def forward(self, users, items):
        dot = (self.user(users) * self.item(items)).sum(-1)
        return dot + self.item_bias[items] + self.offset


def train(models, users, items, ratings, steps=5):
    opts = {k: torch.optim.Adam(m.parameters(), lr=0.05) for k, m in models.items()}
    for _ in range(steps):
        for key, model in models.items():
            opts[key].zero_grad()
            F.mse_loss(model(users, items), ratings).backward()
            opts[key].step()


n_users, n_items = 20, 15
users, items = torch.randint(0, n_users, (128,)), torch.randint(0, n_items, (128,))
ratings = (1 + 4 * torch.rand(n_items))[items] + 0.3 * torch.randn(128)
models = {"mf": BiasedMF(n_users, n_items), "mf_fixed": BiasedMFFixed(n_users, n_items)}
models["mf_fixed"].load_state_dict(models["mf"].state_dict())
item_before = models["mf"].item.weight.detach().clone()

train(models, users, items, ratings)
mf = models["mf"]
assert mf.item_bias.grad is None
assert torch.equal(mf.item_bias, torch.zeros(n_items))
assert not torch.equal(mf.item.weight, item_before)
assert models["mf_fixed"].item_bias.abs().sum() > 0
print("bug confirmed: the learned item bias is read through .data and never trains")
