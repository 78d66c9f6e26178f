"""expect: none
dynamic: dismiss
source: https://github.com/iBelieveCJM/pseudo_label-pytorch/issues/2

Pseudo-labelling: the class indices predicted on unlabelled data, `logits_u.argmax(-1).detach()`, become the targets of a second cross-entropy term, and an accuracy is computed from another detached argmax. Integer class indices carry no gradient whether detached or not, so the detach loses nothing; the network trains through both loss terms via the logits.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
net = nn.Sequential(nn.Linear(6, 32), nn.ReLU(), nn.Linear(32, 4))
opt = torch.optim.SGD(net.parameters(), lr=0.1)
x_lab, y_lab = torch.randn(32, 6), torch.randint(0, 4, (32,))
x_unl = torch.randn(64, 6)

for step in range(20):
    logits_l = net(x_lab)
    logits_u = net(x_unl)
    pseudo = logits_u.argmax(-1).detach()
    loss = F.cross_entropy(logits_l, y_lab) + 0.3 * F.cross_entropy(logits_u, pseudo)
    opt.zero_grad()
    loss.backward()
    opt.step()
    acc = (logits_l.argmax(-1).detach() == y_lab).float().mean()

print("acc", acc.item(), "first-layer grad norm", net[0].weight.grad.norm().item())
assert net[0].weight.grad.norm() > 0
