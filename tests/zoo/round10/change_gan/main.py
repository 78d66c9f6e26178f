"""
expect: GL001 objectives.py:15
dynamic: confirm
source: https://github.com/wangle53/CSA-CDGAN/issues/5

The CSA-CDGAN issue points out that the training script computes the critic's
prediction on the generated change map as `netd(fake).detach()` and then uses it
in the generator's adversarial loss, so "the loss cannot update anything": the
adversarial term is a constant w.r.t. the generator. This program rebuilds that
setup with a small bi-temporal generator, a patch critic and a plain objective
class (objectives.py) whose generator_terms() detaches the critic score. The
asserts show that the generator's gradient is identical whether the adversarial
weight is 0 or 1 (the term contributes no gradient), while an undetached
reference of the very same term does change the generator gradient. In PyTorch
terms the generator parameters receive no gradient from the adversarial loss.
"""
import torch
import torch.nn as nn

from objectives import ChangeDetectionObjective


class ChangeGenerator(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv2d(6, 8, 3, padding=1), nn.ReLU(),
            nn.Conv2d(8, 1, 3, padding=1), nn.Sigmoid())

    def forward(self, before, after):
        return self.body(torch.cat([before, after], dim=1))


class PatchCritic(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv2d(1, 4, 4, stride=2, padding=1), nn.LeakyReLU(0.2),
            nn.Conv2d(4, 1, 4, stride=2, padding=1))

    def forward(self, change_map):
        return self.body(change_map).flatten(1).mean(1)


def generator_grad(gen, critic, objective, before, after, gt):
    gen.zero_grad(set_to_none=True)
    change_map = gen(before, after)
    total, _, adv = objective.generator_terms(critic, change_map, gt)
    total.backward()
    return torch.cat([p.grad.flatten() for p in gen.parameters()]), adv


def main():
    torch.manual_seed(0)
    gen, critic = ChangeGenerator(), PatchCritic()
    before, after = torch.rand(4, 3, 16, 16), torch.rand(4, 3, 16, 16)
    gt = (torch.rand(4, 1, 16, 16) > 0.7).float()

    g_with_adv, adv = generator_grad(gen, critic, ChangeDetectionObjective(adv_weight=1.0), before, after, gt)
    g_without_adv, _ = generator_grad(gen, critic, ChangeDetectionObjective(adv_weight=0.0), before, after, gt)
    assert adv.item() > 0.0
    # the adversarial term is nonzero, yet it changes nothing in the generator gradient
    assert torch.allclose(g_with_adv, g_without_adv)

    # reference: the same adversarial term without the cut does reach the generator
    gen.zero_grad(set_to_none=True)
    change_map = gen(before, after)
    score = critic(change_map)
    ref_adv = nn.functional.binary_cross_entropy_with_logits(score, torch.ones_like(score))
    ref_adv.backward()
    g_adv_only = torch.cat([p.grad.flatten() for p in gen.parameters()])
    assert g_adv_only.abs().sum() > 0

    # critic update still works, so training "runs"
    critic.zero_grad(set_to_none=True)
    d_loss = ChangeDetectionObjective().critic_terms(critic, gen(before, after), gt)
    d_loss.backward()
    assert all(p.grad is not None for p in critic.parameters())
    print("adversarial term contributes no generator gradient: confirmed")


if __name__ == "__main__":
    main()
