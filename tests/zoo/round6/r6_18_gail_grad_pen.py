"""expect: none
dynamic: dismiss
source: https://github.com/ikostrikov/pytorch-a2c-ppo-acktr-gail/blob/master/a2c_ppo_acktr/algo/gail.py

GAIL discriminator update with a WGAN-GP style gradient penalty. Policy
state-action pairs come from rollouts collected under torch.no_grad(), the
penalty interpolates expert and policy data and sets
mixup_data.requires_grad = True, the reward used by the policy is computed
under torch.no_grad(), and the running loss is accumulated with .item().
None of these cut a trainable path: the interpolated batch is pure data whose
input-gradient is exactly what the penalty needs (the discriminator weights
get gradients through create_graph=True), the reward is meant to be a
constant for the policy-gradient step, and the .item() value is only logged.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch import autograd


class Discriminator(nn.Module):
    def __init__(self, input_dim, hidden_dim=32):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(input_dim, hidden_dim), nn.Tanh(),
                                   nn.Linear(hidden_dim, hidden_dim), nn.Tanh(),
                                   nn.Linear(hidden_dim, 1))
        self.optimizer = torch.optim.Adam(self.trunk.parameters(), lr=1e-3)

    def compute_grad_pen(self, expert_state, expert_action, policy_state, policy_action, lambda_=10):
        alpha = torch.rand(expert_state.size(0), 1)
        expert_data = torch.cat([expert_state, expert_action], dim=1)
        policy_data = torch.cat([policy_state, policy_action], dim=1)
        alpha = alpha.expand_as(expert_data)
        mixup_data = alpha * expert_data + (1 - alpha) * policy_data
        mixup_data.requires_grad = True
        disc = self.trunk(mixup_data)
        grad = autograd.grad(outputs=disc, inputs=mixup_data, grad_outputs=torch.ones_like(disc),
                             create_graph=True, retain_graph=True, only_inputs=True)[0]
        return lambda_ * (grad.norm(2, dim=1) - 1).pow(2).mean()

    def update(self, expert_batches, policy_batches):
        loss, n = 0.0, 0
        for (expert_state, expert_action), (policy_state, policy_action) in zip(expert_batches, policy_batches):
            policy_d = self.trunk(torch.cat([policy_state, policy_action], dim=1))
            expert_d = self.trunk(torch.cat([expert_state, expert_action], dim=1))
            gail_loss = F.binary_cross_entropy_with_logits(expert_d, torch.ones_like(expert_d)) + \
                F.binary_cross_entropy_with_logits(policy_d, torch.zeros_like(policy_d))
            grad_pen = self.compute_grad_pen(expert_state, expert_action, policy_state, policy_action)
            loss += (gail_loss + grad_pen).item()
            n += 1
            self.optimizer.zero_grad()
            (gail_loss + grad_pen).backward()
            self.optimizer.step()
        return loss / n

    def predict_reward(self, state, action):
        with torch.no_grad():
            s = torch.sigmoid(self.trunk(torch.cat([state, action], dim=1)))
            return s.log() - (1 - s).log()


class Policy(nn.Module):
    def __init__(self, obs_dim=4, act_dim=2):
        super().__init__()
        self.mu = nn.Linear(obs_dim, act_dim)

    def act(self, obs):
        with torch.no_grad():
            return self.mu(obs) + 0.1 * torch.randn(obs.size(0), self.mu.out_features)


if __name__ == "__main__":
    torch.manual_seed(0)
    policy, disc = Policy(), Discriminator(input_dim=6)
    obs = torch.randn(16, 4)
    policy_batches = [(obs[:8], policy.act(obs[:8])), (obs[8:], policy.act(obs[8:]))]
    expert_batches = [(torch.randn(8, 4), torch.randn(8, 2)) for _ in range(2)]

    pen = disc.compute_grad_pen(*expert_batches[0], *policy_batches[0])
    pen_grads = autograd.grad(pen, list(disc.trunk.parameters()), allow_unused=True)
    assert pen.item() > 0 and any(g is not None and g.abs().sum() > 0 for g in pen_grads)

    before = [p.detach().clone() for p in disc.trunk.parameters()]
    avg_loss = disc.update(expert_batches, policy_batches)
    assert isinstance(avg_loss, float)
    assert all(not torch.equal(b, p) for b, p in zip(before, disc.trunk.parameters()))
    reward = disc.predict_reward(*policy_batches[0])
    assert reward.shape == (8, 1) and not reward.requires_grad
    print("OK: discriminator trains with the gradient penalty; no-grad rewards are intentional")
