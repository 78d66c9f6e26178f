"""
expect: GL001 main.py:42
dynamic: confirm
source: https://github.com/yukiarimo/hanasu/issues/3

A VITS2-style TTS trainer runs the duration discriminator once on the ground-truth and the predicted log-durations,
backpropagates the discriminator loss and steps the discriminator optimizer, then adds the generator-side
adversarial term computed from that same forward to the generator loss. Backward through it fails (hanasu issue #3:
"modified by an inplace operation"; here: graph already freed), and the fix committed was loss_dur_hat.detach().
The error is gone, but the duration predictor, whose only training signal in this trainer is that adversarial
term, is now cut off: optim_g.zero_grad() wipes what the discriminator step left in it and the generator backward
gives it nothing. The asserts show the duration predictor's .grad is None after the generator backward and its
weights never move over several steps, while the text encoder and decoder train from the mel loss; the intended
order (discriminator on detached durations, then a fresh generator-side discriminator call) gives the predictor
a gradient and moves it.
"""
import copy

import torch
import torch.nn.functional as F

from models import DurationDiscriminator, Generator

torch.manual_seed(0)
torch.set_num_threads(1)

tokens = torch.randint(0, 12, (1, 7))
durations = torch.randint(1, 4, (1, 7))
mel = torch.randn(int(durations.sum()), 8)
logw_gt = torch.log(durations.float()).unsqueeze(1)


def train_step_detached(net_g, net_dd, optim_g, optim_dd):
    x, logw, mel_hat = net_g(tokens, durations)
    y_dur_hat_r, y_dur_hat_g = net_dd(x, logw_gt, logw)
    loss_dur = (1 - y_dur_hat_r) ** 2 + y_dur_hat_g ** 2
    loss_dur_hat = (1 - y_dur_hat_g) ** 2
    optim_dd.zero_grad()
    loss_dur.backward()
    optim_dd.step()
    loss_mel = F.l1_loss(mel_hat, mel)
    loss_gen_all = loss_mel + loss_dur_hat.detach()
    optim_g.zero_grad()
    loss_gen_all.backward()
    dp_grad = net_g.dp.proj.weight.grad
    optim_g.step()
    return dp_grad


def train_step_fresh(net_g, net_dd, optim_g, optim_dd):
    x, logw, mel_hat = net_g(tokens, durations)
    y_dur_hat_r, y_dur_hat_g = net_dd(x, logw_gt, logw.detach())
    loss_dur = (1 - y_dur_hat_r) ** 2 + y_dur_hat_g ** 2
    optim_dd.zero_grad()
    loss_dur.backward()
    optim_dd.step()
    _, y_dur_hat_g = net_dd(x, logw_gt, logw)
    loss_gen_all = F.l1_loss(mel_hat, mel) + (1 - y_dur_hat_g) ** 2
    optim_g.zero_grad()
    loss_gen_all.backward()
    dp_grad = net_g.dp.proj.weight.grad
    optim_g.step()
    return dp_grad


net_g, net_dd = Generator(), DurationDiscriminator()
net_g2, net_dd2 = copy.deepcopy(net_g), copy.deepcopy(net_dd)

optim_g = torch.optim.Adam(net_g.parameters(), lr=1e-2)
optim_dd = torch.optim.Adam(net_dd.parameters(), lr=1e-2)
dp_before = net_g.dp.proj.weight.detach().clone()
enc_before = net_g.enc_p.conv.weight.detach().clone()
for _ in range(5):
    dp_grad = train_step_detached(net_g, net_dd, optim_g, optim_dd)
    assert dp_grad is None
assert torch.equal(net_g.dp.proj.weight, dp_before)
assert not torch.equal(net_g.enc_p.conv.weight, enc_before)
print("detached adversarial term: duration predictor grad None, weights unchanged")

optim_g2 = torch.optim.Adam(net_g2.parameters(), lr=1e-2)
optim_dd2 = torch.optim.Adam(net_dd2.parameters(), lr=1e-2)
for _ in range(5):
    dp_grad = train_step_fresh(net_g2, net_dd2, optim_g2, optim_dd2)
    assert dp_grad is not None and dp_grad.abs().sum() > 0
assert not torch.equal(net_g2.dp.proj.weight, dp_before)
print("fresh generator-side discriminator call: duration predictor trains")
print("ok")
