"""expect: none
dynamic: dismiss
source: https://github.com/kevinzakka/recurrent-visual-attention/issues/4

Look-alike. A PyTorch Recurrent Attention Model (RAM) extracts glimpses with
NumPy: the image and the sampled location are turned into arrays, patches are
cropped, and the result is wrapped back with torch.from_numpy. The location
itself is detached before it is fed to the glimpse network. An issue pointed
out that converting to NumPy breaks backpropagation; the author answered that
glimpse extraction is non-differentiable anyway and the location network is
trained with REINFORCE through the log-probability of the sampled location,
not through the glimpse. Every module (glimpse net, core RNN, classifier,
baseline, location net) receives a gradient. Nothing to fix.
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


def extract_glimpse(images, locations, size=6):
    """images: (B, H, W) tensor, locations in [-1, 1]^2 -> (B, size*size) patches."""
    imgs = images.detach().numpy()
    locs = locations.detach().numpy()
    h, w = imgs.shape[1:]
    pad = np.pad(imgs, ((0, 0), (size, size), (size, size)))
    patches = []
    for img, (ly, lx) in zip(pad, locs):
        cy = int(round((ly + 1) / 2 * (h - 1))) + size
        cx = int(round((lx + 1) / 2 * (w - 1))) + size
        patches.append(img[cy - size // 2: cy + size // 2, cx - size // 2: cx + size // 2].ravel())
    return torch.from_numpy(np.stack(patches)).float()


class RAM(nn.Module):
    def __init__(self, hidden=32, n_classes=4, std=0.2):
        super().__init__()
        self.std = std
        self.glimpse_fc = nn.Linear(36, hidden)
        self.loc_fc = nn.Linear(2, hidden)
        self.core = nn.GRUCell(hidden, hidden)
        self.locator = nn.Linear(hidden, 2)
        self.baseliner = nn.Linear(hidden, 1)
        self.classifier = nn.Linear(hidden, n_classes)

    def step(self, images, l_prev, h_prev):
        phi = extract_glimpse(images, l_prev)
        g = F.relu(self.glimpse_fc(phi) + self.loc_fc(l_prev))
        h = self.core(g, h_prev)
        mu = torch.tanh(self.locator(h))
        l_t = (mu + self.std * torch.randn_like(mu)).clamp(-1, 1).detach()
        log_pi = torch.distributions.Normal(mu, self.std).log_prob(l_t).sum(1)
        b = self.baseliner(h).squeeze(1)
        return h, l_t, log_pi, b

    def forward(self, images, n_glimpses=4):
        h = torch.zeros(images.shape[0], self.core.hidden_size)
        l_t = torch.zeros(images.shape[0], 2).uniform_(-1, 1)
        log_pis, baselines = [], []
        for _ in range(n_glimpses):
            h, l_t, log_pi, b = self.step(images, l_t, h)
            log_pis.append(log_pi)
            baselines.append(b)
        return self.classifier(h), torch.stack(log_pis, 1), torch.stack(baselines, 1)


def hybrid_loss(logits, log_pi, baselines, labels):
    reward = (logits.argmax(1) == labels).float()
    R = reward[:, None].expand_as(baselines)
    loss_action = F.cross_entropy(logits, labels)
    loss_baseline = F.mse_loss(baselines, R)
    advantage = (R - baselines).detach()
    loss_reinforce = -(log_pi * advantage).sum(1).mean()
    return loss_action + loss_baseline + 0.1 * loss_reinforce


torch.manual_seed(0)
ram = RAM()
optimizer = torch.optim.Adam(ram.parameters(), lr=1e-3)
images, labels = torch.rand(8, 16, 16), torch.randint(0, 4, (8,))
logits, log_pi, baselines = ram(images)
optimizer.zero_grad()
hybrid_loss(logits, log_pi, baselines, labels).backward()
optimizer.step()

for name, p in ram.named_parameters():
    assert p.grad is not None and p.grad.abs().sum() > 0, name
print("OK")
