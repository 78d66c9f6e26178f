"""
expect: GL001 ssl_step.py:26
dynamic: confirm
source: https://github.com/ShuaiChenBIGR/MASSL-segmentation-framework/issues/1

A semi-supervised segmentation trainer alternates a labeled phase and an
unlabeled phase whose loss asks the attention head to reproduce foreground /
background maps. The issue's suggested fix for an in-place RuntimeError is to
detach the network outputs inside that loss; the loss still backpropagates
(a reconstruction term keeps a graph) but the attention term is now constant.
The asserts show the attention head never gets a gradient, w2/w3 change
nothing, and a variant without the detach does train the head.
"""
import torch

from ssl_step import AttentionSegNet, unlabeled_loss, labeled_loss

torch.manual_seed(0)
torch.set_num_threads(1)

x_lab = torch.randn(4, 1, 16, 16)
m_lab = (torch.rand(4, 1, 16, 16) > 0.5).float()
x_unl = torch.randn(4, 1, 16, 16)
fore = (x_unl > 0).float()
back = 1.0 - fore

model = AttentionSegNet()
opt_lab = torch.optim.SGD(model.parameters(), lr=0.1)
opt_unl = torch.optim.SGD(model.parameters(), lr=0.1)
att_before = model.att_head.weight.detach().clone()

for step in range(3):
    opt_lab.zero_grad()
    labeled_loss(model, x_lab, m_lab).backward()
    opt_lab.step()

    opt_unl.zero_grad()
    loss = unlabeled_loss(model, x_unl, back, fore)
    loss.backward()
    assert model.att_head.weight.grad is None or model.att_head.weight.grad.abs().sum() == 0
    opt_unl.step()

# the attention head never moved
assert torch.equal(model.att_head.weight, att_before)

# the weights of the attention term do not affect any gradient
model.zero_grad()
unlabeled_loss(model, x_unl, back, fore, w2=1.0, w3=1.0).backward()
g1 = model.encoder[0].weight.grad.clone()
model.zero_grad()
unlabeled_loss(model, x_unl, back, fore, w2=50.0, w3=50.0).backward()
g2 = model.encoder[0].weight.grad.clone()
assert torch.allclose(g1, g2)

# fixed variant: same term without detach reaches the attention head
criterion = torch.nn.MSELoss()
model.zero_grad()
_, ob, of, _ = model(x_unl)
(criterion(ob, back) + criterion(of, fore)).backward()
assert model.att_head.weight.grad.abs().sum() > 0
print("ok")
