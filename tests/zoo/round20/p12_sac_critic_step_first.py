"""
expect: GL005 79
dynamic: confirm
source: https://github.com/clvrai/spirl/issues/15

In a skill-prior RL codebase the SAC update first computes the policy loss (which runs the policy's
actions through both critics), then updates the critics, then backpropagates the policy loss. The
critic optimizer's step edits the critic weights that the policy loss's graph saved, so with a new
environment the user hit "one of the variables needed for gradient computation has been modified
by an inplace operation" at the policy update (a later commit moved the policy update before the
critic update). This program keeps that order with small networks and random transitions; it
asserts the policy backward fails for that reason, and that updating the policy first works.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)
S, A, B = 8, 2, 64


class GaussianPolicy(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(S, 64), nn.ReLU(), nn.Linear(64, 2 * A))

    def forward(self, obs):
        mean, log_std = self.net(obs).chunk(2, dim=-1)
        dist = torch.distributions.Normal(mean, log_std.clamp(-5, 2).exp())
        u = dist.rsample()
        action = torch.tanh(u)
        log_prob = (dist.log_prob(u) - torch.log(1 - action.pow(2) + 1e-6)).sum(-1)
        return action, log_prob


def critic():
    return nn.Sequential(nn.Linear(S + A, 64), nn.ReLU(), nn.Linear(64, 1))


class SACAgent:
    def __init__(self, policy_first):
        torch.manual_seed(3)
        self.policy = GaussianPolicy()
        self.critics = nn.ModuleList([critic(), critic()])
        self.critic_targets = nn.ModuleList([critic(), critic()])
        self.critic_targets.load_state_dict(self.critics.state_dict())
        self.policy_opt = torch.optim.Adam(self.policy.parameters(), 3e-4)
        self.critic_opts = [torch.optim.Adam(c.parameters(), 3e-4) for c in self.critics]
        self.log_alpha = torch.zeros(1, requires_grad=True)
        self.alpha_opt = torch.optim.Adam([self.log_alpha], 3e-4)
        self.policy_first = policy_first

    def q(self, nets, obs, act):
        return torch.min(*[n(torch.cat([obs, act], -1)) for n in nets]).squeeze(-1)

    def update(self, obs, act, rew, obs_next, done):
        action, log_prob = self.policy(obs)
        alpha_loss = -(self.log_alpha.exp() * (log_prob - A).detach()).mean()
        self.alpha_opt.zero_grad()
        alpha_loss.backward()
        self.alpha_opt.step()
        alpha = self.log_alpha.exp().detach()

        policy_loss = (alpha * log_prob - self.q(self.critics, obs, action)).mean()

        with torch.no_grad():
            a_next, lp_next = self.policy(obs_next)
            q_target = rew + 0.99 * (1 - done) * (self.q(self.critic_targets, obs_next, a_next) - alpha * lp_next)
        qs = [c(torch.cat([obs, act], -1)).squeeze(-1) for c in self.critics]
        critic_losses = [0.5 * (q - q_target).pow(2).mean() for q in qs]

        if self.policy_first:   # the later fix
            self.policy_opt.zero_grad()
            policy_loss.backward()
            self.policy_opt.step()
        for loss, opt in zip(critic_losses, self.critic_opts):
            opt.zero_grad()
            loss.backward()
            opt.step()
        if not self.policy_first:   # as reported: policy update after the critics moved
            self.policy_opt.zero_grad()
            policy_loss.backward()
            self.policy_opt.step()
        return policy_loss.item()


batch = (torch.randn(B, S), torch.rand(B, A) * 2 - 1, torch.randn(B), torch.randn(B, S), torch.zeros(B))
try:
    SACAgent(policy_first=False).update(*batch)
    err = None
except RuntimeError as e:
    err = str(e)
print("reported:", (err or "")[:80])
assert err is not None and "modified by an inplace operation" in err

agent = SACAgent(policy_first=True)
w0 = agent.policy.net[0].weight.detach().clone()
for _ in range(5):
    agent.update(*batch)
assert (agent.policy.net[0].weight - w0).abs().max() > 0
print("fixed: policy-first order trains without error")
print("OK")
