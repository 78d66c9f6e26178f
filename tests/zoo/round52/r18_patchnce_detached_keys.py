"""expect: none
dynamic: dismiss
source: https://github.com/taesungp/contrastive-unpaired-translation/issues/14

Contrastive unpaired image-to-image translation (CUT). The generator's encoder embeds the input image and the
translated image at two layers, a small MLP head samples and projects the same patch locations from both, and
the PatchNCE loss asks each translated patch (query) to pick out its own source patch (positive key) among
the other patches (negatives). The loss detaches the keys, which the issue questions: the key branch is a
stop-gradient target, while the query branch runs through the generator's decoder, its encoder and the MLP
head, so every trainable parameter still gets a PatchNCE gradient. The discriminator step scores
`fake.detach()` as usual. The asserts check that the PatchNCE loss alone gives a nonzero gradient to every
generator and head parameter and that the generator/head training lowers it.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.ModuleList([nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU()),
                                  nn.Sequential(nn.Conv2d(8, 16, 3, stride=2, padding=1), nn.ReLU())])
        self.dec = nn.Sequential(nn.ConvTranspose2d(16, 8, 4, stride=2, padding=1), nn.ReLU(),
                                 nn.Conv2d(8, 3, 3, padding=1), nn.Tanh())

    def encode(self, x):
        feats = []
        for layer in self.enc:
            x = layer(x)
            feats.append(x)
        return feats

    def forward(self, x):
        return self.dec(self.encode(x)[-1])


class PatchSampleMLP(nn.Module):
    def __init__(self, channels=(8, 16), out=16):
        super().__init__()
        self.mlps = nn.ModuleList(nn.Sequential(nn.Linear(c, out), nn.ReLU(), nn.Linear(out, out)) for c in channels)

    def forward(self, feats, num_patches, patch_ids=None):
        pooled, ids_out = [], []
        for i, (f, mlp) in enumerate(zip(feats, self.mlps)):
            flat = f.flatten(2).permute(0, 2, 1)  # B, HW, C
            ids = patch_ids[i] if patch_ids is not None else torch.randperm(flat.shape[1])[:num_patches]
            pooled.append(F.normalize(mlp(flat[:, ids]), dim=-1))
            ids_out.append(ids)
        return pooled, ids_out


class PatchNCELoss(nn.Module):
    def __init__(self, tau=0.07):
        super().__init__()
        self.tau = tau

    def forward(self, feat_q, feat_k):
        feat_k = feat_k.detach()
        logits = torch.bmm(feat_q, feat_k.transpose(1, 2)) / self.tau  # B, P, P: diagonal = positives
        target = torch.arange(logits.shape[1]).expand(logits.shape[0], -1)
        return F.cross_entropy(logits.flatten(0, 1), target.flatten())


netG, netF, nce = Generator(), PatchSampleMLP(), PatchNCELoss()
netD = nn.Sequential(nn.Conv2d(3, 8, 4, stride=2, padding=1), nn.LeakyReLU(0.2), nn.Conv2d(8, 1, 4, padding=1))
opt_g = torch.optim.Adam(list(netG.parameters()) + list(netF.parameters()), lr=2e-3)
opt_d = torch.optim.Adam(netD.parameters(), lr=2e-3)


def nce_loss(real, fake):
    feat_k_pool, ids = netF(netG.encode(real), 24)
    feat_q_pool, _ = netF(netG.encode(fake), 24, ids)
    return sum(nce(q, k) for q, k in zip(feat_q_pool, feat_k_pool)) / len(feat_q_pool)


real_a = torch.rand(4, 3, 16, 16) * 2 - 1
real_b = torch.rand(4, 3, 16, 16) * 2 - 1

# The PatchNCE term alone reaches every generator and MLP-head parameter.
torch.manual_seed(3)
loss = nce_loss(real_a, netG(real_a))
params = list(netG.parameters()) + list(netF.parameters())
grads = torch.autograd.grad(loss, params)
assert all(g.abs().sum() > 0 for g in grads)

history = []
for step in range(100):
    fake = netG(real_a)
    opt_d.zero_grad()
    d_loss = F.softplus(netD(fake.detach())).mean() + F.softplus(-netD(real_b)).mean()
    d_loss.backward()
    opt_d.step()

    opt_g.zero_grad()
    torch.manual_seed(step)
    l_nce = nce_loss(real_a, fake)
    g_loss = 0.1 * F.softplus(-netD(fake)).mean() + l_nce
    g_loss.backward()
    opt_g.step()
    history.append(l_nce.item())
assert sum(history[-10:]) < 0.5 * sum(history[:10])
print("ok: detached keys still let PatchNCE train G and the head (%.3f -> %.3f)" % (history[0], history[-1]))
