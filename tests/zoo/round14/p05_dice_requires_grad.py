"""
expect: GL003 37
dynamic: confirm
source: https://github.com/kevinzakka/pytorch-goodies/issues/11

The report: using the repository's dice loss with PyTorch 1.3, loss.backward() raises
"element 0 of tensors does not require grad and does not have a grad_fn". This program
rebuilds a segmentation step whose dice loss reads the softmax probabilities through .data,
so the loss has no history, and whose author then calls requires_grad_() on the loss to make
the error go away. The asserts show that backward() then runs but the segmentation head's
weight and bias keep .grad None and do not move, while the same dice loss computed on the
live probabilities gives them a non-zero gradient.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class SoftDice(nn.Module):
    def __init__(self, eps=1e-6, use_data=True):
        super().__init__()
        self.eps = eps
        self.use_data = use_data

    def forward(self, logits, labels):
        probs = F.softmax(logits, dim=1)
        if self.use_data:
            probs = probs.data
        one_hot = F.one_hot(labels, logits.shape[1]).permute(0, 3, 1, 2).float()
        inter = (probs * one_hot).sum((0, 2, 3))
        card = (probs + one_hot).sum((0, 2, 3))
        dice = (2 * inter + self.eps) / (card + self.eps)
        loss = 1 - dice.mean()
        if not loss.requires_grad:
            loss.requires_grad_()
        return loss


head = nn.Conv2d(3, 2, 1)
opt = torch.optim.SGD(head.parameters(), lr=1.0)
x = torch.rand(4, 3, 8, 8)
labels = (x[:, 0] > 0.5).long()

before = [p.detach().clone() for p in head.parameters()]
crit = SoftDice(use_data=True)
for _ in range(3):
    opt.zero_grad()
    loss = crit(head(x), labels)
    loss.backward()
    opt.step()
assert head.weight.grad is None and head.bias.grad is None
assert all(torch.equal(a, b) for a, b in zip(before, head.parameters()))

opt.zero_grad()
SoftDice(use_data=False)(head(x), labels).backward()
assert head.weight.grad is not None and head.weight.grad.abs().sum() > 0
print("ok: requires_grad_() on the dice loss hides the cut; the head never learns")
