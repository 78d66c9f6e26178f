"""
expect: GL005 transformers.py:32
dynamic: confirm
source: https://github.com/AustinMadert/tabnet/blob/00e19bbeb411c606e85a8f0d8ecbda41b5612172/src/transformers.py

A from-scratch TabNet for tabular data.  In the attentive transformer the prior
scale P is first used to weight the attention logits (`a = p * a`, and that
multiplication saves P for the backward pass) and is then updated for the next
decision step with an in-place `p *= (gamma - mask)`.  The in-place update bumps
the version counter of the very tensor the multiplication saved, so backward
through the encoder fails with "one of the variables needed for gradient
computation has been modified by an inplace operation" and no weight is ever
updated.  The asserts catch that error, check the weights did not move, and show
that the out-of-place update `p = p * (gamma - mask)` lets the same encoder
train (loss goes down, attentive weights change).
"""
import torch
import torch.nn as nn

from transformers import AttentiveTransformer, FeatureTransformer

torch.manual_seed(0)
torch.set_num_threads(1)

N_FEAT, N_HID, N_STEPS = 6, 8, 3


class TabNetEncoder(nn.Module):
    def __init__(self, inplace_prior):
        super().__init__()
        self.initial = FeatureTransformer(N_FEAT, N_HID)
        self.att = nn.ModuleList(AttentiveTransformer(N_HID, inplace_prior=inplace_prior) for _ in range(N_STEPS))
        self.feat = nn.ModuleList(FeatureTransformer(N_FEAT, N_HID) for _ in range(N_STEPS))
        self.to_feat = nn.Linear(N_HID, N_FEAT)
        self.head = nn.Linear(N_HID, 1)

    def forward(self, x):
        prior = torch.ones(x.size(0), N_HID)
        a = self.initial(x)
        out = 0
        for step in range(N_STEPS):
            mask, prior = self.att[step](a, prior)
            gate = torch.sigmoid(self.to_feat(mask))
            h = self.feat[step](x * gate)
            out = out + torch.relu(h)
            a = h
        return self.head(out).squeeze(-1)


def make_data(n=64):
    g = torch.Generator().manual_seed(1)
    x = torch.randn(n, N_FEAT, generator=g)
    y = 2.0 * x[:, 0] - x[:, 3] + 0.1 * torch.randn(n, generator=g)
    return x, y


def fit(inplace_prior, steps=60):
    torch.manual_seed(0)
    model = TabNetEncoder(inplace_prior)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    x, y = make_data()
    before = model.att[0].fc.weight.detach().clone()
    losses = []
    for _ in range(steps):
        opt.zero_grad()
        loss = nn.functional.mse_loss(model(x), y)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return model, before, losses


# original: in-place prior update
try:
    fit(inplace_prior=True)
    raised = False
except RuntimeError as err:
    raised = "modified by an inplace operation" in str(err)
assert raised, "in-place prior update must break backward"

torch.manual_seed(0)
probe = TabNetEncoder(inplace_prior=True)
w0 = probe.att[0].fc.weight.detach().clone()
opt = torch.optim.Adam(probe.parameters(), lr=1e-2)
x, y = make_data()
try:
    nn.functional.mse_loss(probe(x), y).backward()
    opt.step()
except RuntimeError:
    pass
assert torch.equal(probe.att[0].fc.weight, w0), "no update happened"

# repaired: out-of-place prior update
model_fix, before, losses = fit(inplace_prior=False)
assert losses[-1] < 0.5 * losses[0], losses[::10]
assert not torch.equal(model_fix.att[0].fc.weight.detach(), before)
print(f"out-of-place prior: loss {losses[0]:.3f} -> {losses[-1]:.3f}")
