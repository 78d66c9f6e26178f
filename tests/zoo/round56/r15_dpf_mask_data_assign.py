"""
expect: GL001 55
dynamic: confirm
source: https://github.com/INCHEON-CHO/Dynamic_Model_Pruning_with_Feedback/issues/1

A re-implementation of Dynamic Pruning with Feedback (DPF) masked each conv
in forward with `self.conv1.weight.data = torch.mul(self.conv1.weight,
self.mask1.weight)`. DPF keeps a dense copy of the weights: the forward uses
the masked weights, the gradient of the masked model updates the dense
weights everywhere, and the mask is recomputed from the dense magnitudes, so
a wrongly pruned weight can grow back. Writing the masked product into
`.data` cuts it from autograd and also overwrites the dense weights, so each
forward pass wipes whatever feedback the pruned entries got from the last
step. They stay at exactly zero, and the magnitude-based mask can never bring
them back. The author confirmed the line was wrong and replaced it with an
autograd function that preserves the weights. The program trains a small
conv net both ways with a magnitude mask recomputed every 20 steps. The
asserts show that with the `.data` write the pruned weights are exactly zero
and the mask freezes after the first pruning step, while with the
straight-through mask the pruned dense weights keep learning and some of them
come back into the mask.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class MaskedWeight(torch.autograd.Function):
    """Forward: w * mask.  Backward: the dense gradient goes to w (DPF feedback)."""

    @staticmethod
    def forward(ctx, weight, mask):
        return weight * mask

    @staticmethod
    def backward(ctx, grad_out):
        return grad_out, None


class DPFNet(nn.Module):
    def __init__(self, keep_dense_copy):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 8, 3, padding=1, bias=False)
        self.mask1 = nn.Conv2d(3, 8, 3, padding=1, bias=False)
        nn.init.ones_(self.mask1.weight)
        self.mask1.weight.requires_grad_(False)
        self.fc = nn.Linear(8, 4)
        self.keep_dense_copy = keep_dense_copy

    def forward(self, x):
        if not self.keep_dense_copy:
            self.conv1.weight.data = torch.mul(self.conv1.weight, self.mask1.weight)
            out = self.conv1(x)
        else:
            w = MaskedWeight.apply(self.conv1.weight, self.mask1.weight)
            out = F.conv2d(x, w, padding=1)
        out = F.relu(out).mean(dim=(2, 3))
        return self.fc(out)


def update_mask(model, sparsity=0.5):
    w = model.conv1.weight.detach().abs().flatten()
    k = int(sparsity * w.numel())
    threshold = w.kthvalue(k).values
    model.mask1.weight.data.copy_((model.conv1.weight.detach().abs() > threshold).float())


x = torch.randn(64, 3, 8, 8)
y = torch.randint(0, 4, (64,))


def train(keep_dense_copy, steps=200, every=20):
    torch.manual_seed(0)
    model = DPFNet(keep_dense_copy)
    opt = torch.optim.SGD([p for p in model.parameters() if p.requires_grad], lr=0.2)
    masks = []
    for step in range(1, steps + 1):
        opt.zero_grad()
        F.cross_entropy(model(x), y).backward()
        opt.step()
        if step % every == 0:
            update_mask(model)
            masks.append(model.mask1.weight.clone())
    with torch.no_grad():  # evaluation pass with the final mask
        model(x)
    return model, masks


# As in the repository: the masked product is written into weight.data.
model, masks = train(keep_dense_copy=False)
pruned = masks[-1] == 0
assert pruned.any()
assert torch.all(model.conv1.weight[pruned] == 0)
assert all(torch.equal(m, masks[0]) for m in masks[1:])

# DPF with a straight-through mask: the dense weights keep their feedback.
model_fix, masks_fix = train(keep_dense_copy=True)
pruned_fix = masks_fix[-1] == 0
assert torch.all(model_fix.conv1.weight[pruned_fix] != 0)
revived = ((masks_fix[0] == 0) & (masks_fix[-1] == 1)).sum().item()
assert revived > 0, revived
print("weight.data masking: pruned weights stuck at 0, mask frozen; "
      "straight-through mask: %d weights came back" % revived)
