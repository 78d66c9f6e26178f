"""
expect: GL005 model.py:19
dynamic: confirm
source: https://github.com/yandexdataschool/Practical_DL/pull/75

A variational autoencoder as in a deep-learning course homework: the encoder gives mu and
log-sigma, and gaussian_sampler() draws z = mu + sigma * eps. The sampler computes sigma with
logsigma.exp_(), an in-place exponential on the encoder output. Here the log-sigma head ends in
tanh, and tanh saves its own output for backward, so the in-place edit overwrites a tensor the
graph still needs: loss.backward() stops with "modified by an inplace operation" (the pull request
reports exactly this exception). Even where no error is raised the edit is wrong, because the
log-sigma handed back to the KL term now holds sigma. The asserts show the error, show that the
returned log-sigma was overwritten (all values positive, equal to exp of the true ones), and show
that an out-of-place sampler trains the encoder.
"""
import torch
import torch.nn.functional as F

from model import VAE


def kl_term(mu, logsigma):
    return 0.5 * torch.sum(mu.pow(2) + torch.exp(2 * logsigma) - 2 * logsigma - 1, dim=1).mean()


def vae_loss(model, x):
    recon, mu, logsigma = model(x)
    return F.mse_loss(recon, x, reduction="sum") / x.shape[0] + kl_term(mu, logsigma), logsigma


class OutOfPlaceVAE(VAE):
    def gaussian_sampler(self, mu, logsigma):
        if self.training:
            std = logsigma.exp()
            return mu + torch.randn_like(std) * std
        return mu


torch.manual_seed(0)
torch.set_num_threads(1)
x = torch.randn(32, 64)

# the homework sampler
model = VAE()
_, true_logsigma = model.encode(x)
true_logsigma = true_logsigma.detach().clone()
loss, returned_logsigma = vae_loss(model, x)
assert torch.allclose(returned_logsigma.detach(), true_logsigma.exp(), atol=1e-6)
assert bool((returned_logsigma > 0).all())  # tanh output was in (-1, 1); now it is exp() of it
raised = False
try:
    loss.backward()
except RuntimeError as err:
    raised = "inplace operation" in str(err)
assert raised, "backward should fail: tanh's saved output was changed by exp_()"

# out-of-place sampler: the encoder is trained
fixed = OutOfPlaceVAE()
fixed.load_state_dict(model.state_dict())
opt = torch.optim.Adam(fixed.parameters(), lr=1e-2)
first = None
for step in range(60):
    opt.zero_grad()
    loss, _ = vae_loss(fixed, x)
    loss.backward()
    first = loss.item() if first is None else first
    opt.step()
assert fixed.enc_logsigma[0].weight.grad is not None
assert fixed.enc_logsigma[0].weight.grad.abs().sum() > 0
assert loss.item() < first
print("in-place sampler: backward raised the in-place error; out-of-place loss %.2f -> %.2f" % (first, loss.item()))
