"""
expect: GL001 36
dynamic: confirm
source: kind 3

A slate recommender learns long-term value with two critics of the same class, both passed
to one Adam optimizer. The bootstrapped target uses the second critic on the next user state,
and that is the only place the second critic appears, after .detach(); the regression term
uses only the first critic. After training steps the second critic's .grad is None and its
weights are unchanged, while a variant that also regresses the second critic updates it.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class SlateCritic(nn.Module):
    def __init__(self, user_dim=12, item_dim=6):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(user_dim + item_dim, 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, user, item):
        return self.net(torch.cat([user, item], -1)).squeeze(-1)


class ValueTrainer:
    def __init__(self, discount=0.9, both_regressed=False):
        self.critic_a = SlateCritic()
        self.critic_b = SlateCritic()
        self.discount = discount
        self.both_regressed = both_regressed
        params = list(self.critic_a.parameters()) + list(self.critic_b.parameters())
        self.opt = torch.optim.Adam(params, lr=1e-2)

    def step(self, user, item, clicks, next_user, next_item):
        future = self.critic_b(next_user, next_item).detach()
        target = clicks + self.discount * future
        loss = F.mse_loss(self.critic_a(user, item), target)
        if self.both_regressed:
            loss = loss + F.mse_loss(self.critic_b(user, item), target)
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        return loss.item()


def batch(n=64):
    return (torch.randn(n, 12), torch.randn(n, 6), torch.rand(n).round(),
            torch.randn(n, 12), torch.randn(n, 6))


def main():
    torch.manual_seed(0)
    data = batch()
    trainer = ValueTrainer()
    a_before = trainer.critic_a.net[0].weight.clone()
    b_before = trainer.critic_b.net[0].weight.clone()
    for _ in range(3):
        trainer.step(*data)
    assert trainer.critic_b.net[0].weight.grad is None
    assert torch.equal(trainer.critic_b.net[0].weight, b_before)
    assert not torch.equal(trainer.critic_a.net[0].weight, a_before)

    ref = ValueTrainer(both_regressed=True)
    ref_b_before = ref.critic_b.net[0].weight.clone()
    for _ in range(3):
        ref.step(*data)
    assert not torch.equal(ref.critic_b.net[0].weight, ref_b_before)
    print("ok: second critic is in the optimizer but never trained")


if __name__ == "__main__":
    main()
