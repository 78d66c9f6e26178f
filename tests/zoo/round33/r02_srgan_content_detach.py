"""
expect: none
dynamic: dismiss
source: https://github.com/eriklindernoren/PyTorch-GAN/issues/94

A user asked why the SRGAN example detaches the real-image features in the content
loss when the feature extractor is frozen anyway. The detach is on the target side
only: the generated image's features keep their graph back to the generator, so the
content loss trains the generator as intended. The asserts show the generator gets a
nonzero gradient from the content term, that it equals the gradient without the
detach, and that a few steps lower the content loss.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(3, 12, 3, padding=1), nn.PReLU(), nn.Conv2d(12, 12, 3, padding=1))
        self.up = nn.PixelShuffle(2)

    def forward(self, x):
        return self.up(self.body(x))


class FeatureExtractor(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 8, 3, padding=1))
        for p in self.features.parameters():
            p.requires_grad = False

    def forward(self, img):
        return self.features(img)


class ContentLoss(nn.Module):
    def __init__(self, extractor):
        super().__init__()
        self.extractor = extractor
        self.crit = nn.L1Loss()

    def forward(self, gen_hr, imgs_hr, detach_target=True):
        gen_features = self.extractor(gen_hr)
        real_features = self.extractor(imgs_hr)
        if detach_target:
            real_features = real_features.detach()
        return self.crit(gen_features, real_features)


gen = Generator()
content = ContentLoss(FeatureExtractor().eval())
opt = torch.optim.Adam(gen.parameters(), lr=2e-3)
imgs_lr = torch.randn(4, 3, 8, 8)
imgs_hr = torch.randn(4, 3, 16, 16)

opt.zero_grad()
content(gen(imgs_lr), imgs_hr).backward()
g_detached = [p.grad.clone() for p in gen.parameters()]
opt.zero_grad()
content(gen(imgs_lr), imgs_hr, detach_target=False).backward()
g_plain = [p.grad.clone() for p in gen.parameters()]
assert all(g.abs().sum() > 0 for g in g_detached)
assert all(torch.allclose(a, b) for a, b in zip(g_detached, g_plain))

first = None
for step in range(30):
    opt.zero_grad()
    loss = content(gen(imgs_lr), imgs_hr)
    loss.backward()
    opt.step()
    if first is None:
        first = loss.item()
assert loss.item() < first
print("ok", first, loss.item())
