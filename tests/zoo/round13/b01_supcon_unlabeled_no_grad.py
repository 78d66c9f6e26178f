"""
expect: GL001 65
dynamic: confirm
source: https://github.com/hangyu94/Ada-CM/issues/8

The report: in Ada-CM's semi-supervised expression-recognition loop the features of the two
augmented unlabeled views are computed inside `with torch.no_grad()`, so the SupCon loss on them
"is just a constant value" and cannot update the model. This program rebuilds the step: a
labeled cross-entropy term, pseudo-labels taken under no_grad (correct), and a SupCon term on
projected features of both unlabeled views that are also computed under no_grad. The asserts
show the projection head (used only by SupCon) gets grad None and never changes, the SupCon term
has requires_grad False, and computing the features with grad on trains the head.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class SupConLoss(nn.Module):
    def __init__(self, temperature=0.2):
        super().__init__()
        self.temperature = temperature

    def forward(self, z, labels):
        sim = z @ z.t() / self.temperature
        eye = torch.eye(z.shape[0], dtype=torch.bool)
        sim = sim.masked_fill(eye, -1e9)
        positives = (labels[:, None] == labels[None, :]) & ~eye
        log_prob = sim - torch.logsumexp(sim, dim=1, keepdim=True)
        per_anchor = (log_prob * positives).sum(1) / positives.sum(1).clamp_min(1)
        return -per_anchor.mean()


class ExpressionNet(nn.Module):
    def __init__(self, in_dim=32, n_cls=7):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(in_dim, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU())
        self.classifier = nn.Linear(64, n_cls)
        self.projector = nn.Sequential(nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 16))

    def forward(self, x):
        h = self.backbone(x)
        return self.classifier(h), F.normalize(self.projector(h), dim=1)


class SemiSupervisedTrainer:
    def __init__(self, model, lam=1.0, features_with_grad=False):
        self.model = model
        self.opt = torch.optim.SGD(model.parameters(), lr=0.1)
        self.supcon = SupConLoss()
        self.lam = lam
        self.features_with_grad = features_with_grad

    def step(self, x_lab, y_lab, x_weak, x_strong):
        logits, _ = self.model(x_lab)
        loss_ce = F.cross_entropy(logits, y_lab)
        with torch.no_grad():
            logits_weak, _ = self.model(x_weak)
            pseudo = logits_weak.argmax(dim=1)
        views = torch.cat([x_weak, x_strong])
        if self.features_with_grad:
            _, feat_u = self.model(views)
        else:
            with torch.no_grad():
                _, feat_u = self.model(views)
        loss_con = self.supcon(feat_u, pseudo.repeat(2))
        loss = loss_ce + self.lam * loss_con
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        return loss_con


def run(features_with_grad):
    torch.manual_seed(0)
    model = ExpressionNet()
    trainer = SemiSupervisedTrainer(model, features_with_grad=features_with_grad)
    proj0 = [p.detach().clone() for p in model.projector.parameters()]
    x_lab, y_lab = torch.randn(16, 32), torch.randint(0, 7, (16,))
    x_u = torch.randn(24, 32)
    for _ in range(3):
        loss_con = trainer.step(x_lab, y_lab, x_u + 0.05 * torch.randn_like(x_u), x_u + 0.3 * torch.randn_like(x_u))
    grads = [p.grad for p in model.projector.parameters()]
    moved = any(not torch.equal(a, b) for a, b in zip(proj0, model.projector.parameters()))
    return loss_con, grads, moved, model


loss_con, grads, moved, model = run(features_with_grad=False)
assert not loss_con.requires_grad, "SupCon term on no_grad features is a constant"
assert all(g is None for g in grads), "projector never receives a gradient"
assert not moved, "projector weights never change"
assert model.classifier.weight.grad is not None  # the CE part still trains

loss_con, grads, moved, _ = run(features_with_grad=True)
assert loss_con.requires_grad and all(g is not None and g.abs().sum() > 0 for g in grads) and moved
print("ok: SupCon on no_grad features leaves the projector untrained")
