"""
expect: none
dynamic: dismiss
source: https://github.com/clovaai/wsolevaluation/blob/96f4b88679af41f005824661f47e6fe3628af2aa/wsol/method/util.py

ACoL (adversarial complementary learning for weakly-supervised object localisation) has two
classifier branches on one backbone: branch A's class map for the ground-truth class is
turned into an attention map, the most discriminative region is erased from the backbone
features, and branch B must classify the erased features.  In the WSOL evaluation
codebase the attention is taken from `feature.detach().clone()` and then marked with
`.requires_grad_(True)`, and the erase mask is written in place with `mask[pos.data] = 0.`
before it multiplies the features.  It reads like a cut value being switched back on and an
in-place edit inside the forward pass, but nothing is meant to learn through the attention:
it only decides which positions are erased, the mask is a fresh tensor that no recorded op
has saved when it is edited, and all three trainable parts still get gradients through the
two cross-entropy losses.  The asserts show non-zero gradients for the backbone and both
branches, no gradient reaching branch A through the erase path, and both losses falling.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


def normalize_tensor(x):
    flat = x.view(x.size(0), x.size(1), -1)
    lo = flat.min(dim=-1, keepdim=True)[0]
    hi = flat.max(dim=-1, keepdim=True)[0]
    return ((flat - lo) / (hi - lo + 1e-6)).view(x.size())


def get_attention(feature, label):
    feat_map = feature.detach().clone()
    attention = feat_map.requires_grad_(True)[range(feat_map.size(0)), label, :, :]
    return normalize_tensor(attention.unsqueeze(1))


def erase_attention(feature, attention, drop_threshold):
    b, _, h, w = attention.size()
    pos = torch.ge(attention, drop_threshold)
    mask = attention.new_ones((b, 1, h, w))
    mask[pos.data] = 0.0
    return feature * mask


class ACoL(nn.Module):
    def __init__(self, n_cls=3):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(),
                                      nn.Conv2d(16, 16, 3, padding=1), nn.ReLU())
        self.classifier_A = nn.Conv2d(16, n_cls, 1)
        self.classifier_B = nn.Conv2d(16, n_cls, 1)

    def forward(self, x, labels):
        feature = self.backbone(x)
        feat_map_a = self.classifier_A(feature)
        logits_a = feat_map_a.mean(dim=(2, 3))
        attention = get_attention(feat_map_a, labels)
        erased = erase_attention(feature, attention, drop_threshold=0.7)
        logits_b = self.classifier_B(erased).mean(dim=(2, 3))
        return logits_a, logits_b


x = torch.randn(24, 3, 10, 10)
y = torch.randint(0, 3, (24,))
x[torch.arange(24), y, 3:7, 3:7] += 2.0

model = ACoL()
opt = torch.optim.SGD(model.parameters(), lr=0.1)

logits_a, logits_b = model(x, y)
model.zero_grad()
F.cross_entropy(logits_b, y).backward()
assert model.classifier_A.weight.grad is None or model.classifier_A.weight.grad.abs().sum() == 0
assert model.classifier_B.weight.grad.abs().sum() > 0 and model.backbone[0].weight.grad.abs().sum() > 0

first = None
for step in range(80):
    opt.zero_grad()
    logits_a, logits_b = model(x, y)
    loss_a, loss_b = F.cross_entropy(logits_a, y), F.cross_entropy(logits_b, y)
    (loss_a + loss_b).backward()
    for part in (model.backbone[0], model.classifier_A, model.classifier_B):
        assert part.weight.grad.abs().sum() > 0
    if first is None:
        first = (loss_a.item(), loss_b.item())
    opt.step()
assert loss_a.item() < 0.5 * first[0] and loss_b.item() < 0.7 * first[1], (first, loss_a.item(), loss_b.item())
print("branch A loss %.3f -> %.3f, erased branch B loss %.3f -> %.3f"
      % (first[0], loss_a.item(), first[1], loss_b.item()))
