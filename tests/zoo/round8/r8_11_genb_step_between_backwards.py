"""
expect: GL005 45
dynamic: confirm
source: https://github.com/chojw/genb/issues/6

GenB (generative bias model) training step for VQA debiasing: a bias
generator `genb`, a discriminator and the main model are trained in one step.
The generator loss g_loss (which includes the adversarial term through the
discriminator) is backpropagated with retain_graph=True and optim_G.step()
updates genb's weights in place. The discriminator loss is then rebuilt from
the same vae_preds = disc(pred_g) graph and backpropagated: that graph saved
genb's weights (inputs of its matmuls), which the optimizer step has since
modified, so on torch >= 1.5 backward raises "one of the variables needed for
gradient computation has been modified by an inplace operation".
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
N_ANS = 5
model = nn.Sequential(nn.Linear(12, 16), nn.ReLU(), nn.Linear(16, N_ANS))
genb = nn.Sequential(nn.Linear(12, 16), nn.ReLU(), nn.Linear(16, N_ANS))
discriminator = nn.Sequential(nn.Linear(N_ANS, 8), nn.ReLU(), nn.Linear(8, 1), nn.Sigmoid())
optim = torch.optim.Adamax(model.parameters(), lr=1e-3)
optim_G = torch.optim.Adamax(genb.parameters(), lr=1e-3)
optim_D = torch.optim.Adamax(discriminator.parameters(), lr=1e-3)
kld = nn.KLDivLoss(reduction="batchmean")


def train_step(vq, answers):
    valid, fake = torch.ones(vq.size(0), 1), torch.zeros(vq.size(0), 1)
    optim.zero_grad()
    pred = model(vq)
    optim_G.zero_grad()
    optim_D.zero_grad()
    pred_g = genb(vq)
    g_loss = F.binary_cross_entropy_with_logits(pred_g, answers) * answers.size(1)
    vae_preds = discriminator(pred_g)
    main_preds = discriminator(pred)
    g_distill = kld(F.log_softmax(pred_g, 1), F.softmax(pred.detach(), 1))
    dsc_loss = F.binary_cross_entropy(vae_preds, valid) + F.binary_cross_entropy(main_preds, valid)
    g_loss = g_loss + dsc_loss + 5 * g_distill
    g_loss.backward(retain_graph=True)
    optim_G.step()
    dsc_loss = F.binary_cross_entropy(vae_preds, fake) + F.binary_cross_entropy(main_preds, valid)
    dsc_loss.backward(retain_graph=True)
    optim_D.step()


vq = torch.randn(8, 12)
answers = torch.rand(8, N_ANS).round()
try:
    train_step(vq, answers)
except RuntimeError as err:
    message = str(err)
else:
    message = ""
assert "modified by an inplace operation" in message, message
print("OK: optim_G.step() between the two backward passes breaks the second one")
