"""
expect: GL001 66
dynamic: confirm
source: https://github.com/suriyachaudary/Self-supervision-for-segmenting-overhead-imagery/issues/7

Self-supervised pre-training for overhead imagery: an inpainting network learns to fill masked
regions while a "coach" network learns to propose harder masks. The report points out that the
coach's training step computes `outputs = net(inputs_*masks).detach()`, so the context
(inpainting) loss that should drive the coach is built wholly from cut values; "the only loss
will be KLD". This program rebuilds the alternating trainer with a tiny inpainting FCN and a
coach that outputs soft masks plus a KL term: the asserts show the context loss carries no graph
to the coach, the coach's gradient is the same with the context weight at 1 or 0, and without the
detach the context loss does reach the coach.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class InpaintFCN(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, 3, 3, padding=1))

    def forward(self, x):
        return self.body(x)


class Coach(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Conv2d(3, 8, 3, padding=1)
        self.mu, self.logvar = nn.Conv2d(8, 1, 1), nn.Conv2d(8, 1, 1)

    def forward(self, x):
        h = F.relu(self.enc(x))
        mu, logvar = self.mu(h), self.logvar(h)
        z = mu + torch.randn_like(mu) * torch.exp(0.5 * logvar)
        masks = torch.sigmoid(z)  # ~1 keeps a pixel, ~0 erases it
        return masks, mu, logvar


net, coach = InpaintFCN(), Coach()
opt_net = torch.optim.Adam(net.parameters(), lr=1e-3)
opt_coach = torch.optim.Adam(coach.parameters(), lr=1e-3)
images = torch.rand(6, 3, 16, 16)


def train_net(inputs):
    with torch.no_grad():
        masks, _, _ = coach(inputs)
    outputs = net(inputs * masks)
    hole = (masks < 0.5).float()
    loss = (((outputs - inputs) ** 2) * hole).sum() / hole.sum().clamp(min=1)
    opt_net.zero_grad()
    loss.backward()
    opt_net.step()


def coach_losses(inputs, detach_outputs=True, con_weight=1.0):
    masks, mu, logvar = coach(inputs)
    inputs_ = inputs * masks
    if detach_outputs:
        outputs = net(inputs_).detach()
    else:
        outputs = net(inputs_)
    mse_loss = ((outputs - inputs) ** 2).mean(1, keepdim=True)
    hole = (masks < 0.5).float()
    loss_con = -(mse_loss * hole).sum() / hole.sum().clamp(min=1)
    kld = -0.5 * torch.mean(1 + logvar - mu.pow(2) - logvar.exp())
    return con_weight * loss_con + kld, loss_con


for step in range(4):
    train_net(images)
    total, loss_con = coach_losses(images)
    assert not loss_con.requires_grad  # context term carries no graph to the coach
    opt_coach.zero_grad()
    total.backward()
    opt_coach.step()


def coach_grad(**kw):
    torch.manual_seed(1)
    total, _ = coach_losses(images, **kw)
    return torch.cat([g.flatten() for g in torch.autograd.grad(total, list(coach.parameters()))])


assert torch.allclose(coach_grad(con_weight=1.0), coach_grad(con_weight=0.0))
assert not torch.allclose(coach_grad(detach_outputs=False, con_weight=1.0),
                          coach_grad(detach_outputs=False, con_weight=0.0))
print("p13 ok: the coach only ever learns from the KL term")
