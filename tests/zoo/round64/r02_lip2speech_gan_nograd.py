"""
expect: GL001 54
dynamic: confirm
source: https://github.com/Fuji1226/lip2sp_pytorch/blob/5d5e4d21e4acaf2930893e9d404988b723e6686c/train_gan.py#L104-L126

lip2sp trains a lip-video-to-mel-spectrogram generator with a least-squares
GAN plus a feature-matching loss.  In the generator half of train_gan.py the
fresh generator output is passed to the discriminator inside
`with torch.no_grad():`, for the fake and the real branch alike, and the
resulting scores and feature maps are then used for the adversarial and
feature-matching terms of the generator loss.  Computed under no_grad, those
terms are constants: the generator is trained by the MSE term alone and the
GAN part of the objective never reaches it, silently.  This program keeps the
same two-phase step (discriminator, then generator) on tiny random lip
features.  The asserts show that in the original step the adversarial and
feature-matching terms carry no graph and the generator gradient equals the
gradient of the MSE term alone; when only the real branch stays under no_grad
the GAN terms add a non-zero gradient to the generator.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class LipToMel(nn.Module):
    def __init__(self, in_dim=12, mel=10):
        super().__init__()
        self.rnn = nn.GRU(in_dim, 16, batch_first=True)
        self.out = nn.Linear(16, mel)

    def forward(self, lip):                      # lip: (B, T, F)
        h, _ = self.rnn(lip)
        return self.out(h).transpose(1, 2)       # (B, mel, T)


class MelCritic(nn.Module):
    def __init__(self, mel=10):
        super().__init__()
        self.c1 = nn.Conv1d(mel, 16, 3, padding=1)
        self.c2 = nn.Conv1d(16, 1, 3, padding=1)

    def forward(self, x):
        f1 = F.leaky_relu(self.c1(x), 0.2)
        return self.c2(f1), [f1]


def generator_loss(gen, disc, lip, feature, keep_fake_graph):
    output = gen(lip)
    if not keep_fake_graph:
        with torch.no_grad():
            out_f, fmaps_f = disc(output)
            out_r, fmaps_r = disc(feature)
    else:
        out_f, fmaps_f = disc(output)
        with torch.no_grad():
            out_r, fmaps_r = disc(feature)
    mse = F.mse_loss(output, feature)
    ls_g = torch.mean((out_f - 1) ** 2)
    fm = sum(F.l1_loss(a, b) for a, b in zip(fmaps_f, fmaps_r))
    return mse, ls_g, fm


def disc_step(gen, disc, opt_d, lip, feature):
    with torch.no_grad():
        output = gen(lip)
    out_f, _ = disc(output)
    out_r, _ = disc(feature)
    loss_d = torch.mean(out_f ** 2) + torch.mean((out_r - 1) ** 2)
    opt_d.zero_grad()
    loss_d.backward()
    opt_d.step()


def gen_grads(gen, loss):
    gen.zero_grad()
    loss.backward(retain_graph=True)
    return [p.grad.detach().clone() for p in gen.parameters()]


lip = torch.randn(3, 8, 12)
feature = torch.randn(3, 10, 8)
gen, disc = LipToMel(), MelCritic()
opt_d = torch.optim.Adam(disc.parameters(), lr=1e-3)
disc_step(gen, disc, opt_d, lip, feature)

# original: discriminator pass on the generator output under no_grad
mse, ls_g, fm = generator_loss(gen, disc, lip, feature, keep_fake_graph=False)
assert not ls_g.requires_grad and not fm.requires_grad
total = mse + 0.1 * ls_g + 1.0 * fm
g_total = gen_grads(gen, total)
g_mse = gen_grads(gen, mse)
assert all(torch.allclose(a, b) for a, b in zip(g_total, g_mse))

# fixed: only the real branch is computed without a graph
mse, ls_g, fm = generator_loss(gen, disc, lip, feature, keep_fake_graph=True)
assert ls_g.requires_grad and fm.requires_grad
g_total = gen_grads(gen, mse + 0.1 * ls_g + 1.0 * fm)
g_mse = gen_grads(gen, mse)
diff = sum((a - b).abs().sum().item() for a, b in zip(g_total, g_mse))
assert diff > 1e-6
