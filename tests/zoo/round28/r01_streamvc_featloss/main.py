"""
expect: GL001 losses.py:21
dynamic: confirm
source: https://github.com/yuval-reshef/StreamVC/issues/3

The StreamVC report: the generator's feature-matching loss called .detach() on
the whole |fake - real| difference instead of on the real features only, so the
term is a constant and the generator gets zero gradient from it. Here a tiny
1-D conv generator and a two-block discriminator are trained; the feature loss
lives in losses.py and detaches inside a helper method. The asserts show the
generator gradient is identical with feature weight 0 and 10 (the term is dead),
while the variant that detaches only the target changes the gradient.
"""
import torch
import torch.nn as nn

from losses import FeatureLoss, FeatureLossTargetDetached, adversarial_g_loss

torch.manual_seed(0)
torch.set_num_threads(1)


class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Conv1d(1, 8, 5, padding=2), nn.LeakyReLU(0.2),
                                 nn.Conv1d(8, 1, 5, padding=2), nn.Tanh())

    def forward(self, x):
        return self.net(x)


class DiscBlock(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([nn.Conv1d(1, 4, 5, padding=2),
                                     nn.Conv1d(4, 4, 5, stride=2, padding=2),
                                     nn.Conv1d(4, 1, 3, padding=1)])

    def forward(self, x):
        feats = []
        for k, layer in enumerate(self.layers):
            x = layer(x)
            if k < len(self.layers) - 1:
                x = torch.nn.functional.leaky_relu(x, 0.2)
            feats.append(x)
        return feats


class MultiDisc(nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = nn.ModuleList([DiscBlock(), DiscBlock()])
        self.pool = nn.AvgPool1d(2)

    def forward(self, x):
        out = []
        for b in self.blocks:
            out.append(b(x))
            x = self.pool(x)
        return out


def generator_grads(G, D, loss_fn, feat_weight, src, tgt):
    G.zero_grad()
    D.zero_grad()
    fake = G(src)
    fake_feats = D(fake)
    real_feats = D(tgt)
    loss = adversarial_g_loss(fake_feats) + feat_weight * loss_fn(real_feats, fake_feats)
    loss.backward()
    return torch.cat([p.grad.flatten().clone() for p in G.parameters()])


G, D = Generator(), MultiDisc()
src = torch.randn(4, 1, 64)
tgt = torch.randn(4, 1, 64)

buggy = FeatureLoss(n_blocks=2, n_layers=3)
g0 = generator_grads(G, D, buggy, 0.0, src, tgt)
g10 = generator_grads(G, D, buggy, 10.0, src, tgt)

fixed = FeatureLossTargetDetached(n_blocks=2, n_layers=3)
f10 = generator_grads(G, D, fixed, 10.0, src, tgt)

# the feature term is non-zero but contributes nothing to the generator
assert buggy(D(tgt), D(G(src))).item() > 0
assert torch.allclose(g0, g10), "feature loss should be dead in the buggy version"
assert not torch.allclose(g0, f10), "fixed feature loss must reach the generator"
print("ok: feature-matching term gives no generator gradient", (f10 - g0).abs().max().item())
