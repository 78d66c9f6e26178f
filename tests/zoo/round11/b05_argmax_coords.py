"""
expect: GL003 47
dynamic: confirm
source: https://github.com/LZGMatrix/BOP19_CDPN_2019ICCV/issues/4

The report: writing a train.py from the CDPN test code, the author turned the per-axis coordinate
bins into coordinates with torch.argmax, normalised them and put them in the loss; backward then
failed with "element 0 of tensors does not require grad". This program rebuilds that coordinate head
and the usual patch of switching requires_grad on the decoded coordinates. The asserts show backward
now runs but the head and backbone weights get grad None and never move; a loss on the bin logits
(what the maintainer advised: take the loss before argmax) trains them.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

BINS = 16


class CoordHead(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU())
        self.bins = nn.Conv2d(8, 3 * BINS, 1)

    def forward(self, img):
        b, _, h, w = img.shape
        return self.bins(self.backbone(img)).view(b, 3, BINS, h, w)


def decode(logits):
    idx = torch.argmax(logits, dim=2)
    return 2.0 * idx.float() / (BINS - 1) - 1.0


torch.manual_seed(0)
model = CoordHead()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
img = torch.randn(2, 3, 8, 8)
gt_bins = torch.randint(0, BINS, (2, 3, 8, 8))
gt_coor = 2.0 * gt_bins.float() / (BINS - 1) - 1.0

w0 = model.bins.weight.detach().clone()
for _ in range(3):
    opt.zero_grad()
    coor = decode(model(img))
    coor.requires_grad = True
    loss = F.l1_loss(coor, gt_coor)
    loss.backward()
    assert model.bins.weight.grad is None and model.backbone[0].weight.grad is None
    opt.step()
assert torch.equal(w0, model.bins.weight)

# loss taken before argmax: the network trains
opt.zero_grad()
F.cross_entropy(model(img).transpose(1, 2), gt_bins).backward()
assert model.bins.weight.grad.abs().sum() > 0
print("ok: requires_grad switched on argmax-decoded coordinates; nothing trains")
