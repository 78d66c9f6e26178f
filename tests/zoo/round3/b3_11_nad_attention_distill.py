"""expect: GL001 49
dynamic: confirm
source: https://github.com/bboylyg/NAD/issues/8

NAD (Neural Attention Distillation) fine-tunes a backdoored student with cross-entropy
plus attention-transfer losses against a teacher.  The first release called .detach()
on the attention loss terms themselves instead of on the teacher activations, so the
distillation part of the objective is logged but never back-propagated into the student.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class AT(nn.Module):
    """Attention transfer loss: distance between normalised spatial attention maps."""

    def __init__(self, p=2.0):
        super().__init__()
        self.p = p

    def attention_map(self, fm, eps=1e-6):
        am = fm.abs().pow(self.p).mean(dim=1, keepdim=True)
        norm = am.flatten(1).norm(dim=1).view(-1, 1, 1, 1)
        return am / (norm + eps)

    def forward(self, fm_s, fm_t):
        return (self.attention_map(fm_s) - self.attention_map(fm_t)).pow(2).mean()


class WideResNetLite(nn.Module):
    def __init__(self, n_classes=5):
        super().__init__()
        self.block1 = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU())
        self.block2 = nn.Sequential(nn.Conv2d(8, 8, 3, padding=1, stride=2), nn.ReLU())
        self.block3 = nn.Sequential(nn.Conv2d(8, 16, 3, padding=1, stride=2), nn.ReLU())
        self.fc = nn.Linear(16, n_classes)

    def forward(self, x):
        a1 = self.block1(x)
        a2 = self.block2(a1)
        a3 = self.block3(a2)
        return a1, a2, a3, self.fc(a3.mean(dim=(2, 3)))


def attention_loss(criterionAT, acts_s, acts_t, betas):
    total = 0.0
    for a_s, a_t, beta in zip(acts_s, acts_t, betas):
        total = total + criterionAT(a_s, a_t).detach() * beta
    return total


def train_step(opt, snet, tnet, optimizer, criterions, img, target):
    *acts_s, output_s = snet(img)
    *acts_t, _ = tnet(img)
    cls_loss = criterions["criterionCls"](output_s, target)
    at_loss = attention_loss(criterions["criterionAT"], acts_s, acts_t, opt["betas"]) + cls_loss
    optimizer.zero_grad()
    at_loss.backward()
    optimizer.step()
    return cls_loss, at_loss


if __name__ == "__main__":
    torch.manual_seed(0)
    student, teacher = WideResNetLite(), WideResNetLite()
    teacher.eval()
    for p in teacher.parameters():
        p.requires_grad = False
    opt = {"betas": (500.0, 1000.0, 1000.0)}
    criterions = {"criterionCls": nn.CrossEntropyLoss(), "criterionAT": AT(2.0)}
    img, target = torch.randn(4, 3, 16, 16), torch.randint(0, 5, (4,))

    # reference: gradient of the classification term alone
    _, _, _, out = student(img)
    ref = torch.autograd.grad(F.cross_entropy(out, target), student.block1[0].weight)[0]

    optimizer = torch.optim.SGD(student.parameters(), lr=0.0)
    cls_loss, at_loss = train_step(opt, student, teacher, optimizer, criterions, img, target)
    assert at_loss.item() > cls_loss.item() + 1e-6          # the AT terms are in the number...
    assert torch.allclose(student.block1[0].weight.grad, ref)  # ...but not in the gradient
    print("attention-transfer terms contribute no gradient")
