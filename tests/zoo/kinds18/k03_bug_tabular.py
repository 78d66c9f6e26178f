"""
expect: GL005 35
dynamic: confirm
source: kind 3

A WGAN-style synthesiser for tabular rows scores the fake batch with the
critic once, backpropagates the critic loss (retain_graph=True), takes
opt_c.step(), and then backpropagates the generator loss through the SAME
critic score computed before the step. The step rewrote the critic weights
saved in that graph, so the second backward raises "modified by an inplace
operation"; the asserts catch it and show that re-scoring after the step works.
"""
import torch
import torch.nn as nn


def mlp(n_in, n_out, hidden=32):
    return nn.Sequential(nn.Linear(n_in, hidden), nn.LeakyReLU(0.2), nn.Linear(hidden, n_out))


class TabularGAN:
    def __init__(self, n_cols=7, z_dim=4):
        self.z_dim = z_dim
        self.gen = mlp(z_dim, n_cols)
        self.critic = mlp(n_cols, 1)
        self.opt_g = torch.optim.Adam(self.gen.parameters(), lr=1e-3)
        self.opt_c = torch.optim.Adam(self.critic.parameters(), lr=1e-3)

    def train_step(self, rows):
        fake = self.gen(torch.randn(rows.shape[0], self.z_dim))
        score_fake = self.critic(fake)
        c_loss = score_fake.mean() - self.critic(rows).mean()
        self.opt_c.zero_grad()
        c_loss.backward(retain_graph=True)
        self.opt_c.step()
        g_loss = -score_fake.mean()
        self.opt_g.zero_grad()
        g_loss.backward()
        self.opt_g.step()
        return c_loss.item(), g_loss.item()


def fixed_step(gan, rows):
    fake = gan.gen(torch.randn(rows.shape[0], gan.z_dim))
    c_loss = gan.critic(fake.detach()).mean() - gan.critic(rows).mean()
    gan.opt_c.zero_grad()
    c_loss.backward()
    gan.opt_c.step()
    g_loss = -gan.critic(fake).mean()  # fresh score after the step
    gan.opt_g.zero_grad()
    g_loss.backward()
    gan.opt_g.step()


if __name__ == "__main__":
    torch.manual_seed(0)
    rows = torch.randn(64, 7) * torch.linspace(0.5, 3.0, 7) + 1.0

    gan = TabularGAN()
    try:
        gan.train_step(rows)
        raise AssertionError("expected the in-place error")
    except RuntimeError as e:
        assert "modified by an inplace operation" in str(e), e

    fixed = TabularGAN()
    w0 = fixed.gen[0].weight.detach().clone()
    for _ in range(5):
        fixed_step(fixed, rows)
    assert not torch.equal(w0, fixed.gen[0].weight.detach())
    print("ok: stale critic score after opt_c.step() raises; re-scoring trains")
