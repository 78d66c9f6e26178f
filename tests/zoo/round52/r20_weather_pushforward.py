"""expect: none
dynamic: dismiss
source: https://github.com/ecmwf/WeatherGenerator/pull/1997

A latent weather forecaster (encoder -> forecast engine applied once per lead step -> decoder) trained on
multi-step rollouts with the pushforward trick added in the linked pull request: when pushforward is drawn
for a batch, the engine advances the latent tokens through the earlier lead steps under torch.no_grad() with
no decoding, and only the last step is run with grad, decoded and scored. The no_grad rollout looks like a
cut path, but it is the point of the trick: the engine learns to correct states produced by its own earlier
steps without backpropagating through the whole unroll, and batches without pushforward still train the
full chain, encoder included. The asserts check that a pushforward batch gives nonzero gradients to the
engine and decoder, that a full batch reaches the encoder too, that every parameter moves in training, and
that the 3-step forecast error falls well below its starting value.
"""
import random

import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)
random.seed(0)

GRID, LATENT, LEADS = 16, 32, 3


class LatentForecaster(nn.Module):
    def __init__(self, p_pushforward=0.5):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(GRID, LATENT), nn.Tanh())
        self.engine = nn.Sequential(nn.Linear(LATENT, LATENT), nn.Tanh(), nn.Linear(LATENT, LATENT))
        self.decoder = nn.Linear(LATENT, GRID)
        self.p_pushforward = p_pushforward

    def forward(self, state, leads, pushforward=None):
        if pushforward is None:
            pushforward = self.training and random.random() < self.p_pushforward
        tokens = self.encoder(state)
        outputs = {}
        for step in range(1, leads + 1):
            all_grad = not pushforward or not self.training or step == leads
            if not all_grad:
                with torch.no_grad():
                    tokens = tokens + self.engine(tokens)
                continue
            tokens = tokens + self.engine(tokens)
            outputs[step] = self.decoder(tokens)
        return outputs


def true_step(field):
    return 0.9 * torch.roll(field, 1, dims=-1) + 0.05 * (torch.roll(field, -1, dims=-1) + field)


def make_batch(n=32):
    x0 = torch.randn(n, GRID)
    traj = [x0]
    for _ in range(LEADS):
        traj.append(true_step(traj[-1]))
    return traj


def batch_loss(model, traj, pushforward=None):
    outs = model(traj[0], LEADS, pushforward)
    return sum((pred - traj[k]).pow(2).mean() for k, pred in outs.items()) / len(outs)


def rollout_error(model, traj):
    model.eval()
    with torch.no_grad():
        err = (model(traj[0], LEADS)[LEADS] - traj[LEADS]).pow(2).mean().item()
    model.train()
    return err


model = LatentForecaster().train()
traj = make_batch()

loss = batch_loss(model, traj, pushforward=True)
loss.backward()
assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in model.engine.parameters())
assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in model.decoder.parameters())
model.zero_grad(set_to_none=True)
batch_loss(model, traj, pushforward=False).backward()
assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in model.parameters())

start = {n: p.detach().clone() for n, p in model.named_parameters()}
test = make_batch(64)
err0 = rollout_error(model, test)
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
data = [make_batch() for _ in range(6)]
for _ in range(40):
    for b in data:
        opt.zero_grad()
        batch_loss(model, b).backward()
        opt.step()
err1 = rollout_error(model, test)
assert all(not torch.equal(start[n], p) for n, p in model.named_parameters())
assert err1 < 0.3 * err0
print("ok: pushforward training moves every parameter; 3-step error %.3f -> %.3f" % (err0, err1))
