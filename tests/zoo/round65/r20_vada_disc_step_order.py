"""
expect: GL005 129
dynamic: confirm
source: https://github.com/ozanciga/dirt-t/issues/3

Adversarial training for domain adaptation (VADA, the first stage of DIRT-T): a classifier is
trained on labelled source data with a virtual-adversarial (VAT) smoothness loss, a conditional
entropy loss on target data and a domain-confusion loss that runs the classifier's features
through a feature discriminator.  The training step builds every loss first and then updates the
two networks one after the other: the discriminator's Adam step runs before `loss_main.backward()`.
But `loss_main` contains the domain-confusion term, whose graph went through the discriminator's
Linear layers and saved their weights for the backward pass to the features.  `optimizer_disc.step()`
rewrites those weights in place, so the later backward finds a saved tensor at a newer version and
raises "one of the variables needed for gradient computation has been modified by an inplace
operation" (on old PyTorch it silently used the updated weights).  The asserts show that error on
the default path, then run the fixed order (discriminator update first, domain loss computed against
the updated discriminator afterwards) and check that the classifier learns the source task, that the
domain term sends gradient into the feature extractor, and that the discriminator is trained too.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

N_CLASSES = 3
IN_DIM = 8
FEAT_DIM = 16


class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.feature_extractor = nn.Sequential(
            nn.Linear(IN_DIM, 32), nn.LeakyReLU(0.1),
            nn.Linear(32, FEAT_DIM), nn.LeakyReLU(0.1),
        )
        self.classifier = nn.Linear(FEAT_DIM, N_CLASSES)

    def forward(self, x):
        feats = self.feature_extractor(x)
        return feats, self.classifier(feats)


class Discriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.disc = nn.Sequential(nn.Linear(FEAT_DIM, 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, feats):
        return self.disc(feats)


class ConditionalEntropyLoss(nn.Module):
    def forward(self, logits):
        p = F.softmax(logits, dim=1)
        return -(p * F.log_softmax(logits, dim=1)).sum(1).mean()


class VAT(nn.Module):
    """Virtual adversarial loss: KL between predictions at x and at x + r_adv."""

    def __init__(self, model, xi=1e-6, radius=0.5, n_power=1):
        super().__init__()
        self.model = model
        self.xi, self.radius, self.n_power = xi, radius, n_power

    @staticmethod
    def _unit(d):
        return d / (d.norm(dim=1, keepdim=True) + 1e-8)

    def forward(self, x, logits):
        target = F.softmax(logits.detach(), dim=1)
        d = self._unit(torch.randn_like(x))
        for _ in range(self.n_power):
            d = (self.xi * d).requires_grad_()
            _, logit_hat = self.model(x + d)
            adv_dist = F.kl_div(F.log_softmax(logit_hat, dim=1), target, reduction="batchmean")
            d = self._unit(torch.autograd.grad(adv_dist, d)[0])
        _, logit_adv = self.model(x + self.radius * d.detach())
        return F.kl_div(F.log_softmax(logit_adv, dim=1), target, reduction="batchmean")


def make_domains(n=96):
    centers = torch.randn(N_CLASSES, IN_DIM) * 3.0
    ys = torch.randint(0, N_CLASSES, (n,))
    yt = torch.randint(0, N_CLASSES, (n,))
    xs = centers[ys] + torch.randn(n, IN_DIM)
    xt = centers[yt] + torch.randn(n, IN_DIM) + 1.5   # shifted target domain
    return xs, ys, xt, yt


class VADATrainer:
    dw, cw, sw, tw = 1e-2, 1.0, 1.0, 1e-2

    def __init__(self):
        self.classifier = Classifier()
        self.feature_discriminator = Discriminator()
        self.cent = ConditionalEntropyLoss()
        self.vat_loss = VAT(self.classifier)
        self.optimizer_cls = torch.optim.Adam(self.classifier.parameters(), lr=3e-3)
        self.optimizer_disc = torch.optim.Adam(self.feature_discriminator.parameters(), lr=3e-3)

    def _disc_loss(self, feats_source, feats_target):
        real = self.feature_discriminator(feats_source.detach())
        fake = self.feature_discriminator(feats_target.detach())
        return 0.5 * (F.binary_cross_entropy_with_logits(real, torch.ones_like(real))
                      + F.binary_cross_entropy_with_logits(fake, torch.zeros_like(fake)))

    def _domain_loss(self, feats_source, feats_target):
        real = self.feature_discriminator(feats_source)
        fake = self.feature_discriminator(feats_target)
        return 0.5 * (F.binary_cross_entropy_with_logits(real, torch.zeros_like(real))
                      + F.binary_cross_entropy_with_logits(fake, torch.ones_like(fake)))

    def train_step(self, xs, ys, xt):
        feats_source, pred_source = self.classifier(xs)
        feats_target, pred_target = self.classifier(xt)
        loss_disc = self._disc_loss(feats_source, feats_target)
        loss_main = (self.dw * self._domain_loss(feats_source, feats_target)
                     + self.cw * F.cross_entropy(pred_source, ys)
                     + self.sw * self.vat_loss(xs, pred_source)
                     + self.tw * self.cent(pred_target)
                     + self.tw * self.vat_loss(xt, pred_target))
        # update discriminator, then classifier
        self.optimizer_disc.zero_grad()
        loss_disc.backward()
        self.optimizer_disc.step()
        self.optimizer_cls.zero_grad()
        loss_main.backward()
        self.optimizer_cls.step()
        return loss_main.item(), loss_disc.item()

    def train_step_fixed(self, xs, ys, xt):
        feats_source, pred_source = self.classifier(xs)
        feats_target, pred_target = self.classifier(xt)
        self.optimizer_disc.zero_grad()
        loss_disc = self._disc_loss(feats_source, feats_target)
        loss_disc.backward()
        self.optimizer_disc.step()
        # domain loss built only now, against the updated discriminator
        loss_domain = self._domain_loss(feats_source, feats_target)
        loss_main = (self.dw * loss_domain
                     + self.cw * F.cross_entropy(pred_source, ys)
                     + self.sw * self.vat_loss(xs, pred_source)
                     + self.tw * self.cent(pred_target)
                     + self.tw * self.vat_loss(xt, pred_target))
        self.optimizer_cls.zero_grad()
        loss_main.backward()
        self.optimizer_cls.step()
        return loss_main.item(), loss_disc.item(), loss_domain


def accuracy(model, x, y):
    with torch.no_grad():
        return (model(x)[1].argmax(1) == y).float().mean().item()


xs, ys, xt, yt = make_domains()

# ---- default (buggy) path: discriminator step between building loss_main and its backward ----
trainer = VADATrainer()
try:
    trainer.train_step(xs, ys, xt)
    raise AssertionError("expected the in-place version error")
except RuntimeError as err:
    assert "modified by an inplace operation" in str(err), err
    print("buggy step raised:", str(err).splitlines()[0][:110])

# ---- fixed order ----
torch.manual_seed(0)
trainer = VADATrainer()
disc_before = [p.detach().clone() for p in trainer.feature_discriminator.parameters()]
acc0 = accuracy(trainer.classifier, xs, ys)
first = None
for it in range(150):
    loss_main, loss_disc, loss_domain = trainer.train_step_fixed(xs, ys, xt)
    first = loss_main if first is None else first
acc1 = accuracy(trainer.classifier, xs, ys)
print(f"fixed: loss_main {first:.3f} -> {loss_main:.3f}, source acc {acc0:.2f} -> {acc1:.2f}")
assert loss_main < 0.5 * first
assert acc1 > 0.9

# the domain-confusion term really reaches the feature extractor
fe_w = trainer.classifier.feature_extractor[0].weight
g = torch.autograd.grad(trainer._domain_loss(*[trainer.classifier(x)[0] for x in (xs, xt)]), fe_w)[0]
assert g.abs().sum() > 0
# and the discriminator was trained
assert any(not torch.equal(a, b.detach()) for a, b in
           zip(disc_before, trainer.feature_discriminator.parameters()))
print("OK")
