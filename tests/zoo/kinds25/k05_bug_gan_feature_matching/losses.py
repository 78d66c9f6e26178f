import torch.nn.functional as F


class GeneratorLoss:
    """Non-saturating adversarial loss plus a weighted feature-matching term."""

    def __init__(self, fm_weight=10.0):
        self.fm_weight = fm_weight

    def feature_matching(self, real_feats, fake_feats):
        return sum(F.l1_loss(f, r) for r, f in zip(real_feats, fake_feats))

    def __call__(self, fake_logits, real_feats, fake_feats):
        adv = F.softplus(-fake_logits).mean()
        return adv + self.fm_weight * self.feature_matching(real_feats, fake_feats)


def discriminator_loss(real_logits, fake_logits):
    return F.softplus(-real_logits).mean() + F.softplus(fake_logits).mean()
