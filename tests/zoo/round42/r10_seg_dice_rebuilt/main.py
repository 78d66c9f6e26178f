"""
expect: GL002 criterion.py:26
dynamic: confirm
source: https://github.com/rinbarpen/NeuroTrain/blob/HEAD/utils/criterion.py

A segmentation trainer (retinal-vessel style masks) sums a soft Dice loss and a KL loss through a
CombineCriterion. The Dice loss is computed with differentiable tensor ops, but the DiceLoss module then copies
it into a brand-new tensor with torch.tensor(loss, ...) and marks that copy as requiring grad before returning
it. The copy is a leaf with no history, so the Dice term adds to the printed loss but sends no gradient to the
network: with the Dice term alone the segmentation net's parameters get grad None and do not move, and in the
combined loss the parameters receive exactly the KL gradient. The asserts show both, and that returning
the Dice tensor itself gives the network a Dice gradient and lowers the Dice loss.
"""
import warnings

import torch
import torch.nn as nn

from criterion import CombineCriterion, DiceLoss, KLLoss, dice_loss

warnings.filterwarnings("ignore", message="To copy construct from a tensor")
torch.manual_seed(0)
torch.set_num_threads(1)


class TinySegNet(nn.Module):
    def __init__(self, classes=2):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, classes, 1))

    def forward(self, x):
        return torch.softmax(self.body(x), 1)


images = torch.rand(4, 3, 16, 16)
fg = (images[:, :1] > 0.5).float()
masks = torch.cat([1 - fg, fg], 1)

net = TinySegNet()
opt = torch.optim.SGD(net.parameters(), lr=0.5)
before = [p.detach().clone() for p in net.parameters()]

dice_only = CombineCriterion([DiceLoss()])
loss = dice_only(masks, net(images))
opt.zero_grad()
loss.backward()
opt.step()
assert all(p.grad is None for p in net.parameters())
assert all(torch.equal(p.detach(), b) for p, b in zip(net.parameters(), before))

both = CombineCriterion([DiceLoss(), KLLoss()])
g_both = torch.autograd.grad(both(masks, net(images)), list(net.parameters()))
g_kl = torch.autograd.grad(KLLoss()(masks, net(images)), list(net.parameters()))
assert all(torch.allclose(a, b) for a, b in zip(g_both, g_kl))

# intended: return the Dice tensor with its history
net2 = TinySegNet()
net2.load_state_dict(net.state_dict())
opt2 = torch.optim.SGD(net2.parameters(), lr=0.5)
start = dice_loss(masks, net2(images)).item()
for _ in range(30):
    opt2.zero_grad()
    dice_loss(masks, net2(images)).backward()
    opt2.step()
end = dice_loss(masks, net2(images)).item()
assert end < start
print("rebuilt Dice: no gradient to the net; Dice with history: %.4f -> %.4f" % (start, end))
