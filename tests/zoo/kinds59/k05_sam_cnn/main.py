"""
expect: GL005 main.py:59
dynamic: confirm
source: none, invented

Sharpness-aware minimisation for a small CNN on synthetic 10-class 8x8 patterns. After a first
backward, `sharpness.ascend` moves the weights to the adversarial point and returns a copy of the
original state dict. The second ("sharp") loss is computed at the perturbed weights, and then the
script restores the original weights with `model.load_state_dict(backup)` before calling
`sharp_loss.backward()`. The restore writes in place into the parameters the sharp forward saved,
so the backward raises "modified by an inplace operation". The asserts catch the error; the
fixed loop backpropagates the sharp loss first, then restores and steps, and the accuracy climbs.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from sharpness import ascend

torch.manual_seed(0)
torch.set_num_threads(1)

N_CLASSES = 10
PROTOS = torch.randn(N_CLASSES, 1, 8, 8)


def batch(n=64):
    y = torch.randint(0, N_CLASSES, (n,))
    return PROTOS[y] + 0.5 * torch.randn(n, 1, 8, 8), y


class SmallConvNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 16, 3, padding=1)
        self.conv2 = nn.Conv2d(16, 32, 3, padding=1)
        self.fc = nn.Linear(32 * 2 * 2, N_CLASSES)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), 2)
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        return self.fc(x.flatten(1))


def train(steps, sharp_grad_first=False, rho=0.05):
    model = SmallConvNet()
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    for _ in range(steps):
        x, y = batch()
        opt.zero_grad()
        F.cross_entropy(model(x), y).backward()
        backup = ascend(model, rho)
        opt.zero_grad()
        sharp_loss = F.cross_entropy(model(x), y)
        if sharp_grad_first:
            sharp_loss.backward()
            model.load_state_dict(backup)
        else:
            model.load_state_dict(backup)
            sharp_loss.backward()
        opt.step()
    x, y = batch(512)
    with torch.no_grad():
        return (model(x).argmax(1) == y).float().mean().item()


if __name__ == "__main__":
    err = None
    try:
        train(1)
    except RuntimeError as e:
        err = str(e)
    assert err is not None and "modified by an inplace operation" in err, err
    acc = train(60, sharp_grad_first=True)
    assert acc > 0.8, acc
    print("k05_sam_cnn: all checks passed")
