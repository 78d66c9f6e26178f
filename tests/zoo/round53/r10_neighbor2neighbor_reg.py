"""
expect: none
dynamic: dismiss
source: https://github.com/TaoHuang2018/Neighbor2Neighbor/blob/main/train.py

Self-supervised image denoising with Neighbor2Neighbor: two sub-images are sampled from each noisy
image by a random neighbour mask, the network maps one sub-image to the other (loss1), and a
regulariser (loss2) compares that difference with the difference of the same two sub-images
taken from the network's output on the full noisy image. That full-image pass is run under
torch.no_grad() on purpose - the paper stops the gradient there - and the sub-images are built by
index-assigning into freshly allocated zero buffers, which no recorded op has saved. Neither is a
bug: the network is trained through noisy_output, inside both loss terms. The asserts show that the
regulariser still changes the network's gradient, that the no-grad branch carries no graph, and
that training lowers the error against the clean images.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def generate_mask_pair(img, gen):
    n, c, h, w = img.shape
    idx_pair = torch.tensor([[0, 1], [0, 2], [1, 3], [2, 3], [1, 0], [2, 0], [3, 1], [3, 2]])
    rd = torch.randint(0, 8, (n * h // 2 * w // 2,), generator=gen)
    mask1 = torch.zeros(n * h // 2 * w // 2 * 4, dtype=torch.bool)
    mask2 = torch.zeros(n * h // 2 * w // 2 * 4, dtype=torch.bool)
    base = torch.arange(0, n * h // 2 * w // 2 * 4, 4)
    mask1[base + idx_pair[rd, 0]] = True
    mask2[base + idx_pair[rd, 1]] = True
    return mask1, mask2


def space_to_depth(x, block=2):
    n, c, h, w = x.shape
    u = F.unfold(x, block, stride=block)
    return u.view(n, c * block ** 2, h // block, w // block)


def generate_subimages(img, mask):
    n, c, h, w = img.shape
    subimage = torch.zeros(n, c, h // 2, w // 2, dtype=img.dtype)
    for i in range(c):
        per_channel = space_to_depth(img[:, i:i + 1], block=2)
        per_channel = per_channel.permute(0, 2, 3, 1).reshape(-1)
        subimage[:, i:i + 1] = per_channel[mask].reshape(n, h // 2, w // 2, 1).permute(0, 3, 1, 2)
    return subimage


class TinyUNet(nn.Module):
    def __init__(self, ch=1, feat=16):
        super().__init__()
        self.enc = nn.Sequential(nn.Conv2d(ch, feat, 3, padding=1), nn.LeakyReLU(0.1),
                                 nn.Conv2d(feat, feat, 3, padding=1), nn.LeakyReLU(0.1))
        self.out = nn.Conv2d(feat, ch, 3, padding=1)

    def forward(self, x):
        return x + self.out(self.enc(x))


def losses(network, noisy, gen, Lambda):
    mask1, mask2 = generate_mask_pair(noisy, gen)
    noisy_sub1 = generate_subimages(noisy, mask1)
    noisy_sub2 = generate_subimages(noisy, mask2)
    with torch.no_grad():
        noisy_denoised = network(noisy)
    noisy_sub1_denoised = generate_subimages(noisy_denoised, mask1)
    noisy_sub2_denoised = generate_subimages(noisy_denoised, mask2)
    noisy_output = network(noisy_sub1)
    diff = noisy_output - noisy_sub2
    exp_diff = noisy_sub1_denoised - noisy_sub2_denoised
    loss1 = torch.mean(diff ** 2)
    loss2 = Lambda * torch.mean((diff - exp_diff) ** 2)
    return loss1, loss2, exp_diff


torch.manual_seed(0)
torch.set_num_threads(1)
yy, xx = torch.meshgrid(torch.linspace(0, 3, 16), torch.linspace(0, 3, 16), indexing="ij")
clean = torch.stack([torch.sin(xx * (k + 1) / 2) * torch.cos(yy) for k in range(8)])[:, None] * 0.5
noisy = clean + 0.3 * torch.randn_like(clean)

network = TinyUNet()
loss1, loss2, exp_diff = losses(network, noisy, torch.Generator().manual_seed(1), Lambda=2.0)
assert not exp_diff.requires_grad and loss2.requires_grad
g1 = torch.autograd.grad(loss1, network.out.weight, retain_graph=True)[0]
g12 = torch.autograd.grad(loss1 + loss2, network.out.weight)[0]
assert (g12 - g1).abs().max() > 1e-6  # the regulariser reaches the network

opt = torch.optim.Adam(network.parameters(), lr=2e-3)
gen = torch.Generator().manual_seed(2)
with torch.no_grad():
    err0 = F.mse_loss(network(noisy), clean).item()
for step in range(300):
    l1, l2, _ = losses(network, noisy, gen, Lambda=2.0 * step / 300)
    opt.zero_grad()
    (l1 + l2).backward()
    opt.step()
with torch.no_grad():
    err1 = F.mse_loss(network(noisy), clean).item()
assert err1 < err0, (err0, err1)
print("MSE to clean images: %.4f -> %.4f" % (err0, err1))
