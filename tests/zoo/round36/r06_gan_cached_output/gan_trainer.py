import torch
import torch.nn as nn
import torch.nn.functional as F


class Generator(nn.Module):
    """Mel-to-wave stand-in: a couple of 1-D convolutions."""

    def __init__(self, n_mels=8, hop=4):
        super().__init__()
        self.pre = nn.Conv1d(n_mels, 16, 3, padding=1)
        self.up = nn.ConvTranspose1d(16, 1, hop, stride=hop)

    def forward(self, mel):
        return torch.tanh(self.up(F.leaky_relu(self.pre(mel), 0.2)))


class Discriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Conv1d(1, 8, 5, padding=2), nn.LeakyReLU(0.2),
                                 nn.Conv1d(8, 1, 5, padding=2))

    def forward(self, wav):
        return self.net(wav)


class VocoderGANTrainer:
    """Multi-optimizer trainer: train_step(batch, optimizer_idx) is called for
    idx 0 (generator) then idx 1 (discriminator) on the same batch, and the
    generator output of step 0 is cached to save a second generator pass."""

    def __init__(self, gen, disc, detach_cached=False):
        self.gen, self.disc = gen, disc
        self.opt_g = torch.optim.Adam(gen.parameters(), lr=1e-3)
        self.opt_d = torch.optim.Adam(disc.parameters(), lr=1e-3)
        self.detach_cached = detach_cached
        self._cache = None

    def train_step(self, batch, optimizer_idx):
        mel, wav = batch
        if optimizer_idx == 0:
            y_hat = self.gen(mel)
            self._cache = y_hat
            adv = ((self.disc(y_hat) - 1) ** 2).mean()
            loss_g = adv + 10.0 * F.l1_loss(y_hat, wav)
            self.opt_g.zero_grad()
            loss_g.backward(retain_graph=True)
            self.opt_g.step()
            return loss_g.item()
        y_hat = self._cache.detach() if self.detach_cached else self._cache
        loss_d = ((self.disc(wav) - 1) ** 2).mean() + (self.disc(y_hat) ** 2).mean()
        self.opt_d.zero_grad()
        loss_d.backward()
        self.opt_d.step()
        return loss_d.item()
