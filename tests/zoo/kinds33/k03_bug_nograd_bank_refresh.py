"""
expect: GL005 28
dynamic: confirm
source: kinds check 33, kind 2

A protein-fragment retrieval head scores queries against a registered
prototype bank with a matmul that saves the bank for backward. Forward then
calls a @torch.no_grad() helper that overwrites bank rows in place, so the
later backward finds a saved tensor at a newer version and fails.
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
        sims = q @ self.bank.t()
        self.refresh_bank(q.detach()[:6])
        return sims


model = PrototypeRetriever()
fragments = torch.randn(8, 20)
labels = torch.randint(0, 24, (8,))

sims = model(fragments)
loss = nn.functional.cross_entropy(sims, labels)
try:
    loss.backward()
    raised = None
except RuntimeError as err:
    raised = str(err)

assert raised is not None, "backward should fail after the in-place bank write"
assert "modified by an inplace operation" in raised, raised
print("ok: backward raised:", raised.splitlines()[0][:90])
