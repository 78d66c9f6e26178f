"""
expect: none
dynamic: dismiss
source: https://github.com/guxinqian/AP3D/issues/9

AP3D's contrastive attention for video person re-id maps the frame features
through small layers on `x.detach()` and `neighbor.detach()`; the author said
the stop-gradient was kept because it tested better. The attention maps still
have trainable mapping layers and the features still reach the loss through
the re-weighted neighbours. Asserts: the mapping layers and the backbone both
get gradients and a few steps lower the ID loss.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class ContrastiveAttention(nn.Module):
    def __init__(self, c=16):
        super().__init__()
        self.x_map = nn.Conv2d(c, c, 1)
        self.n_map = nn.Conv2d(c, c, 1)
        self.att = nn.Sequential(nn.Conv2d(c, 1, 1), nn.Sigmoid())

    def forward(self, x, neighbor):
        a = self.att(self.x_map(x.detach()) * self.n_map(neighbor.detach()))
        return neighbor * a


class ReIDNet(nn.Module):
    def __init__(self, ids=5, c=16):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, c, 3, padding=1), nn.ReLU())
        self.ca = ContrastiveAttention(c)
        self.cls = nn.Linear(c, ids)

    def forward(self, clip):                      # clip: (B, T, 3, H, W)
        b, t = clip.shape[:2]
        f = self.backbone(clip.flatten(0, 1)).view(b, t, -1, *clip.shape[-2:])
        centre = f[:, 0]
        aligned = torch.stack([self.ca(centre, f[:, k]) for k in range(1, t)], 1)
        feat = torch.cat([centre[:, None], aligned], 1).mean(dim=(1, 3, 4))
        return self.cls(feat)


net = ReIDNet()
opt = torch.optim.SGD(net.parameters(), lr=0.1)
clip = torch.randn(6, 3, 3, 8, 8)
y = torch.randint(0, 5, (6,))

losses = []
for step in range(15):
    opt.zero_grad()
    loss = F.cross_entropy(net(clip), y)
    loss.backward()
    if step == 0:
        assert net.ca.x_map.weight.grad.abs().sum() > 0
        assert net.backbone[0].weight.grad.abs().sum() > 0
    opt.step()
    losses.append(loss.item())
assert losses[-1] < losses[0]
print("ok: deliberate detach inside attention; model still trains", losses[0], losses[-1])
