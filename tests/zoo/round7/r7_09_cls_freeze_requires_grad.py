"""expect: GL003 88
dynamic: confirm
source: https://github.com/lxztju/pytorch_classification/issues/32

An image-classification training repo (pytorch_classification) freezes part
of the pretrained backbone before fine-tuning; for EfficientNet it walks
model.named_parameters() and sets requires_grad = False until a hard-coded
counter of 700 is reached. Smaller EfficientNets have fewer than 700
parameter tensors, so everything, classifier included, ends up frozen and the
loss has no grad_fn. The issue reports that train.py only runs after adding
`loss.requires_grad_(True)` ("otherwise RuntimeError: element 0 of tensors
does not require grad"), and another user asks whether it was ever solved.
The switch silences the error, but the loss still has no path to any
parameter: the optimizer (which holds all of them) never receives a gradient
and the weights never change. Fix: freeze by module name / keep the head
trainable, and remove the requires_grad_ call.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class MBBlock(nn.Module):
    def __init__(self, ch):
        super().__init__()
        self.expand = nn.Conv2d(ch, 2 * ch, 1, bias=False)
        self.bn0 = nn.BatchNorm2d(2 * ch)
        self.depthwise = nn.Conv2d(2 * ch, 2 * ch, 3, padding=1, groups=2 * ch, bias=False)
        self.bn1 = nn.BatchNorm2d(2 * ch)
        self.project = nn.Conv2d(2 * ch, ch, 1, bias=False)
        self.bn2 = nn.BatchNorm2d(ch)

    def forward(self, x):
        h = F.silu(self.bn0(self.expand(x)))
        h = F.silu(self.bn1(self.depthwise(h)))
        return x + self.bn2(self.project(h))


class TinyEfficientNet(nn.Module):
    def __init__(self, num_classes, ch=8, n_blocks=4):
        super().__init__()
        self.stem = nn.Conv2d(3, ch, 3, stride=2, padding=1, bias=False)
        self.bn_stem = nn.BatchNorm2d(ch)
        self.blocks = nn.Sequential(*[MBBlock(ch) for _ in range(n_blocks)])
        self.fc = nn.Linear(ch, num_classes)

    def forward(self, x):
        h = self.blocks(F.silu(self.bn_stem(self.stem(x))))
        return self.fc(F.adaptive_avg_pool2d(h, 1).flatten(1))


class TinyResNet(nn.Module):
    def __init__(self, num_classes, ch=8):
        super().__init__()
        self.conv1, self.bn1 = nn.Conv2d(3, ch, 3, padding=1), nn.BatchNorm2d(ch)
        self.layer1, self.layer2 = MBBlock(ch), MBBlock(ch)
        self.fc = nn.Linear(ch, num_classes)

    def forward(self, x):
        h = self.layer2(self.layer1(F.relu(self.bn1(self.conv1(x)))))
        return self.fc(F.adaptive_avg_pool2d(h, 1).flatten(1))


def build_model(model_name, num_classes=5):
    if not model_name.startswith("efficientnet"):
        model = TinyResNet(num_classes)
        for ct, child in enumerate(model.children(), start=1):
            if ct < 4:                                   # freeze the stem and first stage
                for param in child.parameters():
                    param.requires_grad = False
    else:
        model = TinyEfficientNet(num_classes)
        c = 0
        for name, p in model.named_parameters():
            c += 1
            if c >= 700:
                break
            p.requires_grad = False
    return model


def train_iterations(model, optimizer, batches):
    criterion = nn.CrossEntropyLoss()
    model.train()
    for images, labels in batches:
        out = model(images)
        loss = criterion(out, labels)
        loss.requires_grad_(True)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


torch.manual_seed(0)
batches = [(torch.randn(4, 3, 16, 16), torch.randint(0, 5, (4,))) for _ in range(3)]

effnet = build_model("efficientnet-b0")
before = [p.detach().clone() for p in effnet.parameters()]
opt = torch.optim.SGD(effnet.parameters(), lr=0.1, momentum=0.9, weight_decay=0.0)
train_iterations(effnet, opt, batches)
assert sum(1 for _ in effnet.parameters()) < 700          # the cutoff froze everything
assert all(p.grad is None for p in effnet.parameters())
assert all(torch.equal(a, b) for a, b in zip(before, effnet.parameters()))

resnet = build_model("resnet")                             # control: the other branch trains
opt_r = torch.optim.SGD(resnet.parameters(), lr=0.1, momentum=0.9)
train_iterations(resnet, opt_r, batches)
assert resnet.fc.weight.grad is not None and resnet.layer2.project.weight.grad is not None
print("OK")
