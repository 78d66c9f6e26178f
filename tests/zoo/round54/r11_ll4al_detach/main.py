"""
expect: none
dynamic: dismiss
source: https://github.com/Mephisto405/Learning-Loss-for-Active-Learning/blob/3c11ff7cf96d8bb4596209fe56265630fda19da6/main.py

A learning-loss active-learning trainer: a small CNN backbone is trained with cross-entropy while a
loss-prediction module (lossnet.py) learns to rank the backbone's per-sample losses from its
intermediate feature maps. Two detaches are deliberate: the true per-sample losses are detached
inside the ranking loss (they are labels), and after a switch epoch the feature maps handed to the
module are detached so that the module's loss stops shaping the backbone while the module itself
keeps learning. The asserts check that before the switch the module loss does reach the backbone,
that after it the backbone gradient equals the cross-entropy gradient exactly, that the module's
parameters still receive gradients and move, and that both networks are updated every step.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from lossnet import LossNet, loss_pred_loss

torch.manual_seed(0)
torch.set_num_threads(1)


class Backbone(nn.Module):
    def __init__(self, n_classes=4):
        super().__init__()
        self.block1 = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU())
        self.block2 = nn.Sequential(nn.Conv2d(8, 16, 3, stride=2, padding=1), nn.ReLU())
        self.fc = nn.Linear(16, n_classes)

    def forward(self, x):
        f1 = self.block1(x)
        f2 = self.block2(f1)
        scores = self.fc(F.adaptive_avg_pool2d(f2, 1).flatten(1))
        return scores, [f1, f2]


def train_step(models, optimizers, x, y, epoch, epoch_loss, weight=1.0):
    for opt in optimizers.values():
        opt.zero_grad()
    scores, features = models["backbone"](x)
    target_loss = F.cross_entropy(scores, y, reduction="none")
    if epoch > epoch_loss:
        # after the warm-up epochs the module must not steer the backbone any more
        features = [f.detach() for f in features]
    pred_loss = models["module"](features)
    backbone_loss = target_loss.mean()
    module_loss = loss_pred_loss(pred_loss, target_loss)
    loss = backbone_loss + weight * module_loss
    loss.backward()
    for opt in optimizers.values():
        opt.step()
    return backbone_loss, module_loss


def backbone_grad(models, x, y, epoch, epoch_loss, with_module):
    """Gradient of the backbone's first conv for the full loss or for cross-entropy alone."""
    for m in models.values():
        m.zero_grad()
    scores, features = models["backbone"](x)
    target_loss = F.cross_entropy(scores, y, reduction="none")
    loss = target_loss.mean()
    if with_module:
        if epoch > epoch_loss:
            features = [f.detach() for f in features]
        loss = loss + loss_pred_loss(models["module"](features), target_loss)
    loss.backward()
    return models["backbone"].block1[0].weight.grad.clone()


models = {"backbone": Backbone(), "module": LossNet()}
optimizers = {k: torch.optim.SGD(m.parameters(), lr=0.05) for k, m in models.items()}
x = torch.randn(16, 3, 8, 8)
y = torch.randint(0, 4, (16,))
EPOCH_LOSS = 2

# before the switch the module's ranking loss flows into the backbone
g_full = backbone_grad(models, x, y, epoch=1, epoch_loss=EPOCH_LOSS, with_module=True)
g_ce = backbone_grad(models, x, y, epoch=1, epoch_loss=EPOCH_LOSS, with_module=False)
assert not torch.allclose(g_full, g_ce), "module loss should shape the backbone during warm-up"

# after the switch the backbone sees only its own cross-entropy, by design
g_full = backbone_grad(models, x, y, epoch=5, epoch_loss=EPOCH_LOSS, with_module=True)
g_ce = backbone_grad(models, x, y, epoch=5, epoch_loss=EPOCH_LOSS, with_module=False)
assert torch.allclose(g_full, g_ce), "detached features keep the module loss away from the backbone"

for epoch in range(6):
    before = {k: [p.detach().clone() for p in m.parameters()] for k, m in models.items()}
    b_loss, m_loss = train_step(models, optimizers, x, y, epoch, EPOCH_LOSS)
    for name, m in models.items():
        assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in m.parameters() if p.dim() > 1), name
        moved = any(not torch.equal(p, q) for p, q in zip(m.parameters(), before[name]))
        assert moved, f"{name} parameters should move at epoch {epoch}"

print("backbone loss %.4f, module loss %.4f: both networks train" % (b_loss.item(), m_loss.item()))
