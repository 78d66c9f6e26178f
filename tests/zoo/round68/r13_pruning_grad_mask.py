"""
expect: none
dynamic: dismiss
source: https://github.com/Eric-mingjie/rethinking-network-pruning/issues/13

Network pruning (weight-level magnitude pruning, then fine-tuning). After the
pruning pass zeroes the smallest weights through weight.data.mul_(mask), the
fine-tune loop calls loss.backward() and then, before optimizer.step(), walks the
Conv2d/Linear modules, rebuilds the mask from the non-zero weights and multiplies
the gradient in place (m.weight.grad.data.mul_(mask)). This looks like the
in-place edits that corrupt autograd, but it is correct: both edits happen
outside any recorded graph (the backward pass has already finished, and the
pruning pass runs with no graph at all), so no saved tensor is touched; the
masking only stops SGD from reviving pruned weights. The asserts show that the
pruned weights stay exactly zero through fine-tuning with momentum and weight
decay, that the surviving weights keep their ordinary gradient and move, and
that the fine-tune loss goes down.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class SmallVGG(nn.Module):
    def __init__(self, num_classes=4):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(inplace=True),
            nn.MaxPool2d(2),
            nn.Conv2d(8, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(inplace=True),
            nn.AdaptiveAvgPool2d(1))
        self.classifier = nn.Linear(16, num_classes)

    def forward(self, x):
        return self.classifier(self.features(x).flatten(1))


def prune_by_percentile(model, percent):
    weights = torch.cat([m.weight.data.abs().flatten() for m in model.modules()
                         if isinstance(m, (nn.Conv2d, nn.Linear))])
    threshold = torch.quantile(weights, percent / 100.0)
    for m in model.modules():
        if isinstance(m, (nn.Conv2d, nn.Linear)):
            mask = m.weight.data.abs().gt(threshold).float()
            m.weight.data.mul_(mask)
    return threshold


def finetune_epoch(model, data, optimizer):
    model.train()
    total = 0.0
    for inputs, targets in data:
        output = model(inputs)
        loss = F.cross_entropy(output, targets)
        optimizer.zero_grad()
        loss.backward()
        for k, m in enumerate(model.modules()):
            if isinstance(m, (nn.Conv2d, nn.Linear)):
                weight_copy = m.weight.data.abs().clone()
                mask = weight_copy.gt(0).float()
                m.weight.grad.data.mul_(mask)
        optimizer.step()
        total += loss.item()
    return total / len(data)


inputs = torch.randn(64, 3, 8, 8)
targets = (inputs[:, 0].mean(dim=(1, 2)) > 0).long() + 2 * (inputs[:, 1].mean(dim=(1, 2)) > 0).long()
data = [(inputs[i:i + 16], targets[i:i + 16]) for i in range(0, 64, 16)]

model = SmallVGG()
prune_by_percentile(model, 60)
zero_masks = {n: (p.data == 0) for n, p in model.named_parameters() if n.endswith("weight") and p.dim() > 1}
start = {n: p.detach().clone() for n, p in model.named_parameters()}

# the masked gradient equals the plain gradient on surviving weights
probe = F.cross_entropy(model(inputs[:16]), targets[:16])
plain = torch.autograd.grad(probe, model.classifier.weight)[0]
optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9, weight_decay=1e-4)
model.zero_grad()
F.cross_entropy(model(inputs[:16]), targets[:16]).backward()
masked = model.classifier.weight.grad * (model.classifier.weight.data != 0).float()
keep = ~zero_masks["classifier.weight"]
assert torch.allclose(masked[keep], plain[keep], atol=1e-6)

losses = [finetune_epoch(model, data, optimizer) for _ in range(25)]
for n, p in model.named_parameters():
    if n in zero_masks:
        assert torch.all(p.data[zero_masks[n]] == 0), n
        assert (p.data[~zero_masks[n]] - start[n][~zero_masks[n]]).abs().sum() > 0, n
assert losses[-1] < losses[0] * 0.8, (losses[0], losses[-1])
print("pruned weights stay zero; fine-tune loss", round(losses[0], 3), "->", round(losses[-1], 3))
