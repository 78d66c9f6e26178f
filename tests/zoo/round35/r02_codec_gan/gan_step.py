import torch
import torch.nn as nn
import torch.nn.functional as F


class CausalConv1d(nn.Conv1d):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.left_pad = self.dilation[0] * (self.kernel_size[0] - 1)

    def forward(self, x):
        return self._conv_forward(F.pad(x, [self.left_pad, 0]), self.weight, self.bias)


class TinyCodec(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = CausalConv1d(1, 8, 7)
        self.dec = CausalConv1d(8, 1, 7)

    def forward(self, wav):
        return torch.tanh(self.dec(F.elu(self.enc(wav))))


class WaveDiscriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = CausalConv1d(1, 4, 5)
        self.head = nn.Conv1d(4, 1, 3)

    def forward(self, wav):
        return self.head(F.leaky_relu(self.conv(wav), 0.2))


class CodecTrainer:
    """Generator-first adversarial step, as in the reported training script."""

    def __init__(self, codec, disc):
        self.codec, self.disc = codec, disc
        self.opt_g = torch.optim.Adam(codec.parameters(), lr=1e-3)
        self.opt_d = torch.optim.Adam(disc.parameters(), lr=1e-3)

    def step(self, wav):
        fake = self.codec(wav)
        g_adv = F.relu(1 - self.disc(fake)).mean()
        g_loss = F.l1_loss(fake, wav) + g_adv
        self.opt_g.zero_grad()
        g_loss.backward(retain_graph=True)
        self.opt_g.step()

        d_loss = F.relu(1 - self.disc(wav)).mean() + F.relu(1 + self.disc(fake)).mean()
        self.opt_d.zero_grad()
        d_loss.backward()
        self.opt_d.step()
        return g_loss.item(), d_loss.item()


class DiscFirstTrainer(CodecTrainer):
    def step(self, wav):
        fake = self.codec(wav)
        d_loss = F.relu(1 - self.disc(wav)).mean() + F.relu(1 + self.disc(fake.detach())).mean()
        self.opt_d.zero_grad()
        d_loss.backward()
        self.opt_d.step()

        g_loss = F.l1_loss(fake, wav) + F.relu(1 - self.disc(fake)).mean()
        self.opt_g.zero_grad()
        g_loss.backward()
        self.opt_g.step()
        return g_loss.item(), d_loss.item()
