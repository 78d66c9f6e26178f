"""expect: GL005 39
dynamic: confirm
source: https://github.com/MorvanZhou/PyTorch-Tutorial/issues/89

Toy 1-D "painting" GAN. The discriminator and generator losses are built from one forward
pass; the discriminator loss is backpropagated with retain_graph=True and optimizer_D.step()
updates D's weights in place before the generator loss is backpropagated through the same
graph, whose saved D weights are now stale, so the second backward raises.
"""
import torch
import torch.nn as nn

BATCH, N_IDEAS, N_POINTS = 32, 5, 15
points = torch.linspace(-1, 1, N_POINTS).expand(BATCH, N_POINTS)


def real_paintings():
    a = torch.empty(BATCH, 1).uniform_(1, 2)
    return a * points.pow(2) + (a - 1)


torch.manual_seed(0)
gen = nn.Sequential(nn.Linear(N_IDEAS, 64), nn.ReLU(), nn.Linear(64, N_POINTS))
disc = nn.Sequential(nn.Linear(N_POINTS, 64), nn.ReLU(), nn.Linear(64, 1), nn.Sigmoid())
opt_D = torch.optim.Adam(disc.parameters(), lr=1e-4)
opt_G = torch.optim.Adam(gen.parameters(), lr=1e-4)

raised = False
for step in range(3):
    fake = gen(torch.randn(BATCH, N_IDEAS))
    prob_real = disc(real_paintings())
    prob_fake = disc(fake)

    d_loss = -torch.mean(torch.log(prob_real) + torch.log(1.0 - prob_fake))
    g_loss = torch.mean(torch.log(1.0 - prob_fake))

    opt_D.zero_grad()
    d_loss.backward(retain_graph=True)
    opt_D.step()

    opt_G.zero_grad()
    try:
        g_loss.backward()
    except RuntimeError as err:
        assert "modified by an inplace operation" in str(err)
        raised = True
        break
    opt_G.step()

assert raised
print("ok: generator backward raised after discriminator step")
