"""
expect: none
dynamic: dismiss
source: kind 2

A PPO-style learner for a discrete control task detaches the advantage and
uses it only to weight the clipped policy ratio; the value loss is built from
the attached value prediction. The asserts show both actor and critic get
gradients, their weights move and the value error shrinks.
"""
import torch
import torch.nn as nn


class PolicyValueNet(nn.Module):
    def __init__(self, obs_dim=6, n_actions=3, hidden=32):
        super().__init__()
        self.pi = nn.Sequential(nn.Linear(obs_dim, hidden), nn.Tanh(),
                                nn.Linear(hidden, n_actions))
        self.v = nn.Sequential(nn.Linear(obs_dim, hidden), nn.Tanh(),
                               nn.Linear(hidden, 1))


class PPOLearner:
    def __init__(self, net, clip=0.2, vf_coef=0.5):
        self.net, self.clip, self.vf_coef = net, clip, vf_coef
        self.opt = torch.optim.Adam(net.parameters(), lr=1e-2)

    def loss(self, obs, actions, old_logp, returns):
        logp = torch.log_softmax(self.net.pi(obs), -1)
        logp = logp.gather(1, actions[:, None]).squeeze(1)
        values = self.net.v(obs).squeeze(-1)
        advantage = (returns - values).detach()
        ratio = (logp - old_logp).exp()
        clipped = ratio.clamp(1 - self.clip, 1 + self.clip)
        policy_loss = -torch.min(ratio * advantage, clipped * advantage).mean()
        value_loss = (returns - values).pow(2).mean()
        return policy_loss + self.vf_coef * value_loss, value_loss.item()


if __name__ == "__main__":
    torch.manual_seed(2)
    learner = PPOLearner(PolicyValueNet())
    obs, actions = torch.randn(128, 6), torch.randint(0, 3, (128,))
    returns = obs[:, :2].sum(-1) + 0.5
    with torch.no_grad():
        old_logp = torch.log_softmax(learner.net.pi(obs), -1)
        old_logp = old_logp.gather(1, actions[:, None]).squeeze(1)
    before = {n: p.detach().clone() for n, p in learner.net.named_parameters()}
    errs = []
    for _ in range(60):
        learner.opt.zero_grad()
        loss, verr = learner.loss(obs, actions, old_logp, returns)
        loss.backward()
        assert learner.net.v[0].weight.grad.abs().sum() > 0
        assert learner.net.pi[0].weight.grad.abs().sum() > 0
        learner.opt.step()
        errs.append(verr)
    for n, p in learner.net.named_parameters():
        assert not torch.equal(p, before[n]), n
    assert errs[-1] < 0.3 * errs[0], (errs[0], errs[-1])
    print("ok: detached advantage only weights the policy; critic trains")
