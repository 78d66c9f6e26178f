"""
expect: none
dynamic: dismiss
source: kinds check 33, kind 2

A protein-fragment retrieval head scores queries against a snapshot of its
registered prototype bank (clone + detach), so the @torch.no_grad() helper
that overwrites bank rows in place never touches the tensor the matmul saved,
and backward succeeds.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)


class PrototypeRetriever(nn.Module):
    def __init__(self, dim=10, slots=24):
        super().__init__()
        self.embed = nn.Linear(20, dim)
        self.register_buffer("bank", torch.randn(slots, dim))
        self.register_buffer("cursor", torch.zeros((), dtype=torch.long))

    @torch.no_grad()
    def refresh_bank(self, keys):
        n = keys.shape[0]
        start = int(self.cursor)
        self.bank[start:start + n] = keys
        self.cursor.fill_((start + n) % self.bank.shape[0])

    def forward(self, fragments):
        q = self.embed(fragments)
        sims = q @ self.bank.clone().detach().t()
        self.refresh_bank(q.detach()[:6])
        return sims


model = PrototypeRetriever()
fragments = torch.randn(8, 20)
labels = torch.randint(0, 24, (8,))

sims = model(fragments)
loss = nn.functional.cross_entropy(sims, labels)
loss.backward()

assert model.embed.weight.grad is not None
assert model.embed.weight.grad.abs().sum() > 0
assert int(model.cursor) == 6, "bank refresh still ran"
print("ok: backward succeeded and the bank was refreshed")
