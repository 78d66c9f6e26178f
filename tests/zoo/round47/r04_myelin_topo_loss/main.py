"""
expect: GL002 topo.py:19, GL002 main.py:54
dynamic: confirm
source: https://github.com/Zoiie/Segmentation-of-myelin-in-electron-microscopy-images/blob/main/segment_bkup.py

Myelin segmentation in electron-microscopy tiles with a small U-Net-like network. For
the first epochs the loss is a topology term: `topo_module` takes each predicted
probability map out of the graph (`.detach().cpu().numpy()`, argmax) and rebuilds it
with `torch.from_numpy` before scoring it, so that term has no path back to the
network; later epochs use a soft Dice loss that is differentiable. Because the topology
loss raised "does not require grad", the training loop wraps every loss in
`Variable(loss, requires_grad=True)`, which makes a fresh leaf and cuts the Dice branch
as well. The asserts show that after training through both branches no convolution has
a gradient or moved, and that the same Dice loss without the wrapper, and a topology
term kept in torch on the soft probabilities, both give the first convolution a gradient.
"""
import torch
import torch.nn as nn
from torch.autograd import Variable

from topo import get_topo_loss, topo_module


class SmallUNet(nn.Module):
    def __init__(self, n_classes=2):
        super().__init__()
        self.enc = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU())
        self.down = nn.Sequential(nn.MaxPool2d(2), nn.Conv2d(8, 16, 3, padding=1), nn.ReLU())
        self.up = nn.ConvTranspose2d(16, 8, 2, stride=2)
        self.out = nn.Conv2d(16, n_classes, 1)

    def forward(self, x):
        e = self.enc(x)
        d = self.up(self.down(e))
        return self.out(torch.cat([e, d], 1))


def dice_loss(logits, target_onehot, eps=1e-5):
    prob = logits.softmax(1)
    inter = (prob * target_onehot).sum((2, 3))
    denom = prob.sum((2, 3)) + target_onehot.sum((2, 3))
    return (1 - (2 * inter + eps) / (denom + eps))[:, 1:].mean()


def train(model, optimizer, images, masks, nb_epochs=14):
    for epoch in range(nb_epochs):
        for ims_torch, gts_torch in zip(images, masks):
            optimizer.zero_grad()
            preds_torch = model(ims_torch)
            if epoch > 10:
                loss = dice_loss(preds_torch, gts_torch)
            else:
                loss = topo_module(preds_torch, gts_torch)
            loss = Variable(loss, requires_grad=True)
            loss.backward()
            optimizer.step()


def one_hot(mask):
    return torch.stack([1 - mask, mask], 1).float()


torch.manual_seed(0)
torch.set_num_threads(1)
images = [torch.rand(2, 1, 16, 16) for _ in range(3)]
masks = [one_hot((torch.rand(2, 16, 16) > 0.6).long()) for _ in range(3)]

model = SmallUNet()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
before = [p.detach().clone() for p in model.parameters()]
train(model, optimizer, images, masks)
assert all(p.grad is None for p in model.parameters())
assert all(torch.equal(b, p) for b, p in zip(before, model.parameters()))

dice = dice_loss(model(images[0]), masks[0])
dice.backward()
assert model.enc[0].weight.grad is not None and model.enc[0].weight.grad.abs().sum() > 0

model.zero_grad(set_to_none=True)
prob = model(images[0]).softmax(1)
soft_topo = sum(get_topo_loss(prob[i, 1], masks[0][i, 1]) for i in range(2)) / 2
soft_topo.backward()
assert model.enc[0].weight.grad is not None and model.enc[0].weight.grad.abs().sum() > 0
print("wrapped losses leave the U-Net untouched; unwrapped dice and soft topology train it")
