"""
expect: none
dynamic: dismiss
source: kinds check 21, kind 1 (written for this check)

Actor-critic: the critic (torso + value head) is trained by its own TD(0) value
loss, and the actor reads the critic torso's features through .detach() on purpose,
so the policy gradient does not reshape the critic's representation; one optimizer
holds both. The asserts show every critic and actor parameter gets a nonzero
gradient from the step's total loss, and that the torso's gradient equals the value
loss's alone (the cut only keeps the policy loss out, it starves nothing).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Critic(nn.Module):
    def __init__(self, obs_dim, hid=32):
        super().__init__()
        self.torso = nn.Sequential(nn.Linear(obs_dim, hid), nn.Tanh(),
                                   nn.Linear(hid, hid), nn.Tanh())
        self.value = nn.Linear(hid, 1)

    def forward(self, obs):
        feat = self.torso(obs)
        return feat, self.value(feat).squeeze(-1)


class AgentBase:
    gamma = 0.99

    def __init__(self, parts, lr=3e-3):
        self.parts = parts
        self.opt = torch.optim.Adam([p for m in parts for p in m.parameters()], lr=lr)

    def losses(self, batch):
        raise NotImplementedError

    def update(self, batch):
        self.opt.zero_grad()
        terms = self.losses(batch)
        sum(terms.values()).backward()
        self.opt.step()
        return {k: v.item() for k, v in terms.items()}


class FeatureSharingActorCritic(AgentBase):
    def __init__(self, obs_dim, n_act, hid=32):
        self.critic = Critic(obs_dim, hid)
        self.actor = nn.Sequential(nn.Linear(hid, hid), nn.ReLU(), nn.Linear(hid, n_act))
        super().__init__([self.critic, self.actor])

    def losses(self, batch):
        obs, act, rew, next_obs, done = batch
        feat, v = self.critic(obs)
        with torch.no_grad():
            _, v_next = self.critic(next_obs)
            target = rew + self.gamma * (1 - done) * v_next
        value_loss = F.mse_loss(v, target)
        logits = self.actor(feat.detach())
        logp = F.log_softmax(logits, dim=-1).gather(1, act[:, None]).squeeze(1)
        advantage = (target - v).detach()
        entropy = torch.distributions.Categorical(logits=logits).entropy().mean()
        policy_loss = -(logp * advantage).mean() - 0.01 * entropy
        return {"value": value_loss, "policy": policy_loss}


if __name__ == "__main__":
    torch.manual_seed(2)
    B, obs_dim, n_act = 64, 6, 4
    batch = (torch.randn(B, obs_dim), torch.randint(0, n_act, (B,)), torch.randn(B),
             torch.randn(B, obs_dim), (torch.rand(B) < 0.1).float())
    agent = FeatureSharingActorCritic(obs_dim, n_act)
    torso = list(agent.critic.torso.parameters())
    terms = agent.losses(batch)
    g_value = torch.autograd.grad(terms["value"], torso, retain_graph=True)
    agent.opt.zero_grad()
    sum(terms.values()).backward()
    for m in agent.parts:
        for name, p in m.named_parameters():
            assert p.grad is not None and p.grad.abs().sum() > 0, name
    assert all(torch.allclose(p.grad, g) for p, g in zip(torso, g_value))
    before = [p.detach().clone() for p in torso]
    for _ in range(3):
        agent.update(batch)
    assert all(not torch.equal(p, q) for p, q in zip(torso, before))
    print("ok: critic trained by its own loss, actor by the policy loss")
