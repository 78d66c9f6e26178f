"""expect: GL001 55
dynamic: confirm
source: https://github.com/yuval-reshef/StreamVC/issues/3

StreamVC (streaming voice conversion) trains its decoder with an adversarial
loss plus a feature-matching loss over the discriminator's intermediate
feature maps. The FeatureLoss module wrapped the whole difference in
.detach(): `masked_mean(torch.abs(fake - real).detach(), ...)`. The report
("Zero Gradient from Feature Loss") points out that the detach should be on
the real features only. As written the feature-matching term is a constant:
the decoder's gradient is exactly the adversarial gradient, and the
reconstruction-like signal the paper relies on never reaches it. Fix: detach
only `real[i][j]`.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ScaleDiscriminator(nn.Module):
    def __init__(self, ch=8, n_layers=3):
        super().__init__()
        layers, c_in = [], 1
        for _ in range(n_layers):
            layers.append(nn.Conv1d(c_in, ch, 5, stride=2, padding=2))
            c_in = ch
        self.layers = nn.ModuleList(layers)
        self.head = nn.Conv1d(ch, 1, 3, padding=1)

    def forward(self, wav):
        feats, h = [], wav.unsqueeze(1)
        for conv in self.layers:
            h = F.leaky_relu(conv(h), 0.2)
            feats.append(h)
        feats.append(self.head(h))          # last entry: the logits map
        return feats


def masked_mean_from_ratio(x, ratio):
    keep = max(1, int(x.shape[-1] * ratio))
    return x[..., :keep].mean()


class FeatureLoss(nn.Module):
    def __init__(self, n_blocks, n_layers):
        super().__init__()
        self.n_blocks, self.n_layers = n_blocks, n_layers

    def forward(self, real, fake, mask_ratio):
        loss = torch.tensor(0.0)
        wt = (1.0 / self.n_blocks) * (4.0 / (self.n_layers + 1))
        for i in range(self.n_blocks):
            for j in range(len(fake[i]) - 1):
                loss = loss + wt * masked_mean_from_ratio(
                    torch.abs(fake[i][j] - real[i][j]).detach(), mask_ratio)
        return loss


class Decoder(nn.Module):
    def __init__(self, dim=16):
        super().__init__()
        self.proj = nn.Linear(dim, 64)
        self.refine = nn.Conv1d(1, 1, 5, padding=2)

    def forward(self, units):
        return self.refine(torch.tanh(self.proj(units)).unsqueeze(1)).squeeze(1)


def generator_losses(decoder, discs, feat_loss, units, target_wav):
    fake_wav = decoder(units)
    fake = [d(fake_wav) for d in discs]
    real = [d(target_wav) for d in discs]
    adv = sum(F.relu(1 - f[-1]).mean() for f in fake) / len(discs)
    fm = feat_loss(real, fake, mask_ratio=0.9)
    return adv, fm


def decoder_grads(decoder, scalar):
    decoder.zero_grad()
    scalar.backward()
    return [p.grad.clone() for p in decoder.parameters()]


torch.manual_seed(0)
decoder = Decoder()
discs = nn.ModuleList([ScaleDiscriminator() for _ in range(2)])
feat_loss = FeatureLoss(n_blocks=2, n_layers=3)
opt_g = torch.optim.Adam(decoder.parameters(), lr=1e-4)
units = torch.randn(4, 16)
target_wav = torch.randn(4, 64)

adv, fm = generator_losses(decoder, discs, feat_loss, units, target_wav)
g_total = decoder_grads(decoder, adv + 2.0 * fm)
opt_g.step()
assert fm.item() > 0 and not fm.requires_grad        # a non-zero value, but a constant

# reference: the adversarial term alone yields the very same decoder gradient
torch.manual_seed(0)
decoder_ref = Decoder()
adv_ref, _ = generator_losses(decoder_ref, discs, feat_loss, units, target_wav)
g_adv = decoder_grads(decoder_ref, adv_ref)
assert all(torch.allclose(a, b) for a, b in zip(g_total, g_adv))

# a correctly written feature loss (detach only the real side) would contribute
fake = [d(decoder_ref(units)) for d in discs]
real = [[t.detach() for t in d(target_wav)] for d in discs]
fm_ok = sum(torch.abs(fake[i][j] - real[i][j]).mean() for i in range(2) for j in range(3))
g_fm = decoder_grads(decoder_ref, fm_ok)
assert sum(g.abs().sum() for g in g_fm) > 0
print("OK")
