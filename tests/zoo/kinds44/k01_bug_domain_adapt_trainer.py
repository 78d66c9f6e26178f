"""
expect: GL005 54
dynamic: confirm
source: kinds check 44, kind 1

Adversarial domain adaptation with a plain trainer class. `forward()` encodes source
and target batches and stores the domain critic's scores of the target features in
`self.tgt_domain_score`; `backward_critic()` trains the critic on detached features and
calls `self.opt_critic.step()`; `backward_model()` then backpropagates the encoder's
adversarial loss from the stored `self.tgt_domain_score`, whose graph saved the critic
weights that the step has just changed in place. The driver method
`optimize_parameters()` calls them in that order, so the last backward raises
"modified by an inplace operation". The asserts check that message and that the encoder
and label head never get updated, while the critic did take its step.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class DomainAdaptationTrainer:
    def __init__(self, in_dim=16, feat_dim=32, n_classes=4, lr=1e-3, adv_weight=0.1):
        self.encoder = nn.Sequential(
            nn.Linear(in_dim, feat_dim), nn.ReLU(), nn.Linear(feat_dim, feat_dim)
        )
        self.label_head = nn.Linear(feat_dim, n_classes)
        self.domain_critic = nn.Sequential(
            nn.Linear(feat_dim, 16), nn.LeakyReLU(0.2), nn.Linear(16, 1)
        )
        self.opt_critic = torch.optim.Adam(self.domain_critic.parameters(), lr=lr)
        self.opt_model = torch.optim.Adam(
            list(self.encoder.parameters()) + list(self.label_head.parameters()), lr=lr
        )
        self.adv_weight = adv_weight

    def set_input(self, src_x, src_y, tgt_x):
        self.src_x, self.src_y, self.tgt_x = src_x, src_y, tgt_x

    def forward(self):
        self.src_feat = self.encoder(self.src_x)
        self.tgt_feat = self.encoder(self.tgt_x)
        self.src_logits = self.label_head(self.src_feat)
        # critic's opinion of the target features, kept for the encoder's adversarial loss
        self.tgt_domain_score = self.domain_critic(self.tgt_feat)

    def backward_critic(self):
        src_score = self.domain_critic(self.src_feat.detach())
        tgt_score = self.domain_critic(self.tgt_feat.detach())
        self.loss_critic = F.binary_cross_entropy_with_logits(
            src_score, torch.ones_like(src_score)
        ) + F.binary_cross_entropy_with_logits(tgt_score, torch.zeros_like(tgt_score))
        self.opt_critic.zero_grad()
        self.loss_critic.backward()
        self.opt_critic.step()

    def backward_model(self):
        cls_loss = F.cross_entropy(self.src_logits, self.src_y)
        # the encoder wants target features to pass as source (label 1) for the critic
        adv_loss = F.binary_cross_entropy_with_logits(
            self.tgt_domain_score, torch.ones_like(self.tgt_domain_score)
        )
        self.loss_model = cls_loss + self.adv_weight * adv_loss
        self.opt_model.zero_grad()
        self.loss_model.backward()
        self.opt_model.step()

    def optimize_parameters(self):
        self.forward()
        self.backward_critic()
        self.backward_model()


def snapshot(*modules):
    return [p.detach().clone() for m in modules for p in m.parameters()]


def same(a, b):
    return all(torch.equal(x, y) for x, y in zip(a, b))


if __name__ == "__main__":
    torch.manual_seed(0)
    trainer = DomainAdaptationTrainer()
    src_x = torch.randn(64, 16)
    src_y = torch.randint(0, 4, (64,))
    tgt_x = torch.randn(64, 16) * 1.5 + 0.7

    model_before = snapshot(trainer.encoder, trainer.label_head)
    critic_before = snapshot(trainer.domain_critic)

    trainer.set_input(src_x, src_y, tgt_x)
    try:
        trainer.optimize_parameters()
        raised = None
    except RuntimeError as exc:
        raised = str(exc)

    assert raised is not None and "modified by an inplace operation" in raised
    assert same(model_before, snapshot(trainer.encoder, trainer.label_head))
    assert not same(critic_before, snapshot(trainer.domain_critic))
    print("domain adaptation step done")
