"""
expect: none
dynamic: dismiss
source: kinds check 31, kind 1

A universal additive perturbation is learned against a frozen audio-frame
classifier. The loss uses the classifier's recorded forward, so the attack term
reaches the perturbation; the no_grad `preview` helper only feeds a log line.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)


class FrozenFrameClassifier(nn.Module):
    def __init__(self, n_mel=20, n_cls=5):
        super().__init__()
        self.conv = nn.Conv1d(n_mel, 12, kernel_size=3, padding=1)
        self.out = nn.Linear(12, n_cls)
        for p in self.parameters():
            p.requires_grad = False

    def forward(self, spec):
        h = torch.relu(self.conv(spec)).mean(dim=-1)
        return self.out(h)

    @torch.no_grad()
    def preview(self, spec):
        return self.forward(spec).argmax(dim=-1)


clf = FrozenFrameClassifier().eval()
spec = torch.randn(10, 20, 30)
labels = torch.randint(0, 5, (10,))
delta = torch.zeros(20, 30, requires_grad=True)
opt = torch.optim.Adam([delta], lr=0.01)
xent = nn.CrossEntropyLoss()
beta = 0.1


def objective(with_attack=True):
    reg = beta * delta.pow(2).mean()
    if not with_attack:
        return reg
    attack = -xent(clf(spec + delta), labels)
    return attack + reg


log = []
for step in range(3):
    opt.zero_grad()
    loss = objective()
    loss.backward()
    opt.step()
    flipped = (clf.preview(spec + delta) != labels).float().mean().item()
    log.append(flipped)

delta.grad = None
objective(True).backward()
g_full = delta.grad.clone()
delta.grad = None
objective(False).backward()
g_reg = delta.grad.clone()
assert not torch.allclose(g_full, g_reg), "attack term must add gradient"
print("ok: attack term is live", (g_full - g_reg).norm().item(), log)
