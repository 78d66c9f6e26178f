"""
expect: GL005 main.py:43
dynamic: confirm
source: kinds check 19, kind 2 (written for this check)

`ControlAgent` (agent_base.py) stores the shared-trunk actor-critic as `self.net`;
the subclass builds `self.opt` on `self.net.parameters()` and its `update()` steps
the optimizer after the policy backward, then calls backward on the value loss
through the same graph. The step edited the trunk weights that graph saved, so the
second backward raises; the asserts check that error and that a single summed
backward before one step works.
"""
import torch
import torch.nn as nn
from agent_base import ControlAgent


class ArmNet(nn.Module):
    def __init__(self, obs_dim=9, act_dim=3):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(obs_dim, 64), nn.Tanh(), nn.Linear(64, 64), nn.Tanh())
        self.mu = nn.Linear(64, act_dim)
        self.v = nn.Linear(64, 1)

    def forward(self, obs):
        h = self.trunk(obs)
        return self.mu(h), self.v(h).squeeze(-1)


class SplitStepA2C(ControlAgent):
    def __init__(self, net, lr=3e-4):
        super().__init__(net)
        self.opt = torch.optim.Adam(self.net.parameters(), lr=lr)

    def update(self, obs, actions, returns):
        mean, value = self.net(obs)
        dist = torch.distributions.Normal(mean, 0.3)
        adv = (returns - value).detach()
        policy_loss = -(dist.log_prob(actions).sum(-1) * adv).mean()
        value_loss = (returns - value).pow(2).mean()
        self.opt.zero_grad()
        policy_loss.backward(retain_graph=True)
        self.opt.step()
        value_loss.backward()
        self.opt.step()
        self.updates += 1


class JointA2C(SplitStepA2C):
    def update(self, obs, actions, returns):
        mean, value = self.net(obs)
        dist = torch.distributions.Normal(mean, 0.3)
        adv = (returns - value).detach()
        loss = -(dist.log_prob(actions).sum(-1) * adv).mean() + 0.5 * (returns - value).pow(2).mean()
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        self.updates += 1


if __name__ == "__main__":
    torch.manual_seed(3)
    obs, acts, rets = torch.randn(16, 9), torch.randn(16, 3), torch.randn(16)
    try:
        SplitStepA2C(ArmNet()).update(obs, acts, rets)
        raise AssertionError("second backward should have failed")
    except RuntimeError as e:
        assert "modified by an inplace operation" in str(e), e
    agent = JointA2C(ArmNet())
    agent.update(obs, acts, rets)
    assert agent.updates == 1
    print("k2_bug_robotics: optimizer step between two backwards raises")
