"""
expect: GL003 57
dynamic: confirm
source: https://github.com/cfzd/Ultra-Fast-Lane-Detection/issues/282

A lane-detection user fine-tunes from a checkpoint and, to freeze the
backbone, sets requires_grad = False on every parameter of the model; the
loss then has no graph and backward raises "element 0 of tensors does not
require grad". The training step below takes the common shortcut of calling
requires_grad_() on the loss, which silences the error but trains nothing.
The asserts show no parameter moves and the row-anchor head gets no grad,
while freezing only the backbone (the fix the thread settles on) trains it.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

ROWS, GRIDS, LANES = 6, 10, 2


class LaneNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.model = nn.Sequential(nn.Conv2d(3, 8, 3, stride=2, padding=1), nn.ReLU(),
                                   nn.Conv2d(8, 8, 3, stride=2, padding=1), nn.ReLU())
        self.cls = nn.Sequential(nn.Flatten(), nn.Linear(8 * 4 * 4, ROWS * (GRIDS + 1) * LANES))

    def forward(self, img):
        out = self.cls(self.model(img))
        return out.view(-1, GRIDS + 1, ROWS, LANES)


def load_finetune(net, state, freeze):
    net.load_state_dict(state, strict=False)
    if freeze == "all":
        for param in net.parameters():
            param.requires_grad = False
    elif freeze == "backbone":
        for param in net.model.parameters():
            param.requires_grad = False


def make_optimizer(net):
    return torch.optim.SGD(net.parameters(), lr=0.1)


def train_step(net, opt, img, target):
    with torch.set_grad_enabled(True):
        logits = net(img)
        loss = F.cross_entropy(logits, target)
    opt.zero_grad()
    if not loss.requires_grad:
        # avoid "element 0 of tensors does not require grad"
        loss.requires_grad_(True)
    loss.backward()
    opt.step()
    return loss


pretrained = LaneNet().state_dict()
img = torch.randn(4, 3, 16, 16)
target = torch.randint(0, GRIDS + 1, (4, ROWS, LANES))

net = LaneNet()
load_finetune(net, pretrained, freeze="all")
opt = make_optimizer(net)
before = {k: v.clone() for k, v in net.state_dict().items()}
losses = [train_step(net, opt, img, target).item() for _ in range(5)]
after = net.state_dict()
assert all(torch.equal(before[k], after[k]) for k in before)
assert net.cls[1].weight.grad is None
assert losses[0] == losses[-1]

net2 = LaneNet()
load_finetune(net2, pretrained, freeze="backbone")
opt2 = make_optimizer(net2)
head_before = net2.cls[1].weight.detach().clone()
losses2 = [train_step(net2, opt2, img, target).item() for _ in range(5)]
assert not torch.equal(net2.cls[1].weight, head_before)
assert losses2[-1] < losses2[0]
print("ok", losses, losses2)
