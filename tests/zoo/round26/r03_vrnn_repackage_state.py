"""
expect: GL001 36
dynamic: confirm
source: https://github.com/emited/VariationalRecurrentNeuralNetwork/issues/1

A reader of this VRNN implementation asked why forward() cuts the gradient behind
h_{t-1} with a _repackage_state() helper on every time step, since nothing in the paper
says to; the author agreed, saying he had thought the step was needed for any recurrent
model. Here a small VRNN (prior, encoder, decoder, GRU cell) detaches its hidden state
inside the per-step loop, so the KL + reconstruction terms of later steps never reach
the learned initial state or earlier transitions. The asserts show the last step's loss
gives no gradient to h0 and that the same model without the repackaging propagates it.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)
X, Z, HID, T, B = 5, 3, 16, 12, 8


class VRNN(nn.Module):
    def __init__(self, repackage=True):
        super().__init__()
        self.repackage = repackage
        self.h0 = nn.Parameter(torch.zeros(1, HID))
        self.phi_x = nn.Linear(X, HID)
        self.phi_z = nn.Linear(Z, HID)
        self.enc = nn.Linear(2 * HID, 2 * Z)
        self.prior = nn.Linear(HID, 2 * Z)
        self.dec = nn.Linear(2 * HID, X)
        self.rnn = nn.GRUCell(2 * HID, HID)

    def _repackage_state(self, h):
        return h.detach()

    def forward(self, x):
        h = self.h0.expand(x.shape[1], HID)
        step_losses = []
        for t in range(x.shape[0]):
            fx = F.relu(self.phi_x(x[t]))
            enc_mu, enc_logv = self.enc(torch.cat([fx, h], -1)).chunk(2, -1)
            pri_mu, pri_logv = self.prior(h).chunk(2, -1)
            z = enc_mu + torch.randn_like(enc_mu) * (0.5 * enc_logv).exp()
            fz = F.relu(self.phi_z(z))
            recon = self.dec(torch.cat([fz, h], -1))
            kld = 0.5 * (pri_logv - enc_logv + (enc_logv.exp() + (enc_mu - pri_mu) ** 2)
                         / pri_logv.exp() - 1).sum(-1).mean()
            step_losses.append(kld + F.mse_loss(recon, x[t]))
            h = self.rnn(torch.cat([fx, fz], -1), h)
            if self.repackage:
                h = self._repackage_state(h)
        return step_losses


data = torch.cumsum(torch.randn(T, 64, X) * 0.3, dim=0)
model = VRNN(repackage=True)
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
for step in range(5):
    losses = model(data[:, torch.randint(0, 64, (B,))])
    opt.zero_grad()
    sum(losses).backward()
    opt.step()

batch = data[:, :B]
torch.manual_seed(1)
last = model(batch)[-1]
g_h0 = torch.autograd.grad(last, model.h0, allow_unused=True)[0]
assert g_h0 is None, "buggy model: late-step loss never reaches h0"

full = VRNN(repackage=False)
full.load_state_dict(model.state_dict())
torch.manual_seed(1)
last_full = full(batch)[-1]
g_h0_full = torch.autograd.grad(last_full, full.h0)[0]
assert torch.allclose(last, last_full)  # same forward value, only the graph differs
assert g_h0_full.abs().sum() > 0
print("ok: last-step loss reaches h0 only without _repackage_state")
