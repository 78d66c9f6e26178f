"""
expect: GL003 67
dynamic: confirm
source: https://github.com/ultralytics/yolov5/issues/12808

A user doing adversarial training with YOLOv5's classification models could train with a
PGD attacker but adversarial testing in classify/val.py failed: run() is wrapped in
@smart_inference_mode() (torch.inference_mode), and wrapping the attacker in
torch.enable_grad() does not leave inference mode, so the attack's loss.backward() finds
no graph. This program reproduces the decorated validation function and a small
LinfPGDAttack. The asserts show the attack raises inside run(), and that the same attack
run outside the decorated region works and lowers accuracy.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


def smart_inference_mode(torch_1_9=True):
    def decorate(fn):
        return (torch.inference_mode if torch_1_9 else torch.no_grad)()(fn)
    return decorate


class LinfPGDAttack:
    def __init__(self, model, eps=8 / 255, eps_iter=2 / 255, nb_iter=5):
        self.model, self.eps, self.eps_iter, self.nb_iter = model, eps, eps_iter, nb_iter

    def perturb(self, x, y):
        delta = torch.empty_like(x).uniform_(-self.eps, self.eps).requires_grad_(True)
        for _ in range(self.nb_iter):
            loss = F.cross_entropy(self.model(x + delta), y)
            loss.backward()
            with torch.no_grad():
                delta += self.eps_iter * delta.grad.sign()
                delta.clamp_(-self.eps, self.eps)
            delta.grad = None
        return (x + delta).clamp(0.0, 1.0).detach()


class TinyClassifier(nn.Module):
    def __init__(self, n_cls=4):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(),
                                 nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, n_cls))

    def forward(self, x):
        return self.net(x)


def make_loader(n_batches=3):
    g = torch.Generator().manual_seed(1)
    for _ in range(n_batches):
        yield torch.rand(8, 3, 16, 16, generator=g), torch.randint(0, 4, (8,), generator=g)


@smart_inference_mode()
def run(model, dataloader, attacker=None):
    model.eval()
    correct = total = 0
    for images, labels in dataloader:
        if attacker is not None:
            with torch.enable_grad():
                images = attacker.perturb(images, labels)
        pred = model(images).argmax(dim=1)
        correct += (pred == labels).sum().item()
        total += labels.numel()
    return correct / total


def run_fixed(model, dataloader, attacker=None):
    model.eval()
    correct = total = 0
    for images, labels in dataloader:
        if attacker is not None:
            images = attacker.perturb(images, labels)        # attack with autograd on
        with torch.no_grad():
            pred = model(images).argmax(dim=1)
        correct += (pred == labels).sum().item()
        total += labels.numel()
    return correct / total


model = TinyClassifier()
opt = torch.optim.SGD(model.parameters(), lr=0.5)
for images, labels in make_loader(20):                       # quick "training" on random data
    opt.zero_grad()
    F.cross_entropy(model(images), labels).backward()
    opt.step()

attacker = LinfPGDAttack(model, eps=0.3, eps_iter=0.1)
clean_acc = run(model, make_loader())                        # clean validation works
try:
    run(model, make_loader(), attacker)
    raise AssertionError("expected the attack inside inference mode to fail")
except RuntimeError as err:
    assert "does not require grad" in str(err) or "inference" in str(err).lower()

adv_acc = run_fixed(model, make_loader(), attacker)
x0, y0 = next(make_loader())
x_adv = attacker.perturb(x0, y0)
assert (x_adv - x0).abs().max() > 0.05, "outside inference mode the attack runs and perturbs"
assert adv_acc <= run_fixed(model, make_loader()) + 1e-9
print(f"ok: attack fails inside @smart_inference_mode; clean={clean_acc:.2f} adv={adv_acc:.2f}")
