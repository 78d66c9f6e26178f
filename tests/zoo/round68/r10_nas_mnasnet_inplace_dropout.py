"""
expect: GL005 61
dynamic: confirm
source: https://github.com/microsoft/nni/pull/4614

Neural architecture search (multi-trial NAS over an MnasNet-style search space, as in
the NNI example). Every sampled trial model ends with global average pooling, a
functional ReLU and a classifier built as Sequential(Dropout(p, inplace=True), Linear).
ReLU's backward needs its output, and the in-place dropout overwrites exactly that
tensor in training mode, so each trial crashes in backward with "one of the variables
needed for gradient computation has been modified by an inplace operation" (the error
the PR fixes by dropping inplace=True). The asserts catch that error for the default
trial builder, then rebuild the same sampled architectures with an out-of-place dropout
and show that every trial trains (loss falls) so the search can rank them.
"""
import random

import torch
from torch import nn
import torch.nn.functional as F

torch.manual_seed(0)
random.seed(0)
torch.set_num_threads(1)


class RegularConv(nn.Module):
    def __init__(self, in_ch, out_ch, k):
        super().__init__()
        self.conv = nn.Conv2d(in_ch, out_ch, k, padding=k // 2, bias=False)
        self.relu = nn.ReLU(inplace=True)  # on the conv output, which conv does not save
        self.bn = nn.BatchNorm2d(out_ch)

    def forward(self, x):
        return self.bn(self.relu(self.conv(x)))


class DepthwiseConv(nn.Module):
    def __init__(self, in_ch, out_ch, k):
        super().__init__()
        self.dw = nn.Conv2d(in_ch, in_ch, k, padding=k // 2, groups=in_ch, bias=False)
        self.bn1 = nn.BatchNorm2d(in_ch)
        self.pw = nn.Conv2d(in_ch, out_ch, 1, bias=False)
        self.bn2 = nn.BatchNorm2d(out_ch)

    def forward(self, x):
        return self.bn2(self.pw(F.relu(self.bn1(self.dw(x)))))


OPS = {"regular": RegularConv, "depthwise": DepthwiseConv}


class TrialNet(nn.Module):
    def __init__(self, arch, num_classes=4, dropout=0.2):
        super().__init__()
        layers, ch = [nn.Conv2d(3, 8, 3, padding=1)], 8
        for op_name, k in arch:
            layers.append(OPS[op_name](ch, 16, k))
            ch = 16
        self.layers = nn.Sequential(*layers)
        self.classifier = nn.Sequential(nn.Dropout(p=dropout, inplace=True),
                                        nn.Linear(ch, num_classes))

    def forward(self, x):
        x = self.layers(x)
        x = x.mean([2, 3])
        x = F.relu(x)
        return self.classifier(x)


def sample_arch():
    return [(random.choice(list(OPS)), random.choice([1, 3, 5])) for _ in range(2)]


def make_data(n=32):
    y = torch.arange(n) % 4
    x = torch.randn(n, 3, 8, 8) * 0.5
    x[torch.arange(n), y % 3] += (1.0 + (y // 3).float()).view(n, 1, 1)
    return x, y


def run_trial(model, steps):
    x, y = make_data()
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    model.train()
    losses = []
    for _ in range(steps):
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses


def main():
    archs = [sample_arch() for _ in range(3)]
    for arch in archs:
        try:
            run_trial(TrialNet(arch), 1)
            raise AssertionError("expected the in-place dropout to break backward")
        except RuntimeError as err:
            assert "modified by an inplace operation" in str(err), err
    print(f"{len(archs)} trials crashed in backward (in-place dropout after ReLU)")

    results = []
    for arch in archs:
        model = TrialNet(arch)
        model.classifier[0] = nn.Dropout(p=0.2)  # out-of-place, as in the fix
        losses = run_trial(model, 60)
        assert losses[-1] < 0.7 * losses[0], (arch, losses[0], losses[-1])
        results.append((losses[-1], arch))
    best = min(results)
    print(f"fixed trials trained; best arch {best[1]} final loss {best[0]:.3f}")


if __name__ == "__main__":
    main()
