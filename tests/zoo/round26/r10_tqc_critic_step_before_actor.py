"""
expect: GL005 85
dynamic: confirm
source: https://github.com/SamsungLabs/tqc_pytorch/issues/8

TQC's Trainer.train() builds the critic loss, the alpha loss and the actor loss
(alpha * log_pi - mean of critic quantiles at the new action) first, then runs backward
and step() for the critic, soft-updates the target, and only then calls
actor_loss.backward(). The issue reports "modified by an inplace operation" on
PyTorch 2.0 with the anomaly trace pointing at the actor-loss line: the critic step
rewrote the weights that graph saved (older PyTorch did not check and silently used the
updated weights). The same update order is reproduced with a small quantile critic;
the asserts show the failure and that building the actor loss after the step trains.
"""
import copy

import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)
S, A, N_NETS, N_Q, B = 5, 2, 2, 5, 32


class Actor(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(S, 64), nn.ReLU(), nn.Linear(64, 2 * A))

    def forward(self, s):
        mean, log_std = self.net(s).chunk(2, -1)
        std = log_std.clamp(-5, 2).exp()
        pre = mean + std * torch.randn_like(mean)
        action = torch.tanh(pre)
        log_pi = (-0.5 * ((pre - mean) / std) ** 2 - std.log()).sum(-1, keepdim=True) \
            - torch.log(1 - action.pow(2) + 1e-6).sum(-1, keepdim=True)
        return action, log_pi


class Critic(nn.Module):
    def __init__(self):
        super().__init__()
        self.nets = nn.ModuleList(nn.Sequential(nn.Linear(S + A, 64), nn.ReLU(), nn.Linear(64, N_Q))
                                  for _ in range(N_NETS))

    def forward(self, s, a):
        sa = torch.cat([s, a], -1)
        return torch.stack([net(sa) for net in self.nets], dim=1)   # B x nets x quantiles


def quantile_huber_loss(cur_z, target):
    diff = target[:, None, None, :] - cur_z[:, :, :, None]
    huber = torch.where(diff.abs() <= 1, 0.5 * diff.pow(2), diff.abs() - 0.5)
    tau = (torch.arange(N_Q).float() + 0.5) / N_Q
    return (torch.abs(tau[None, None, :, None] - (diff < 0).float()) * huber).mean()


class Trainer:
    def __init__(self, actor, critic, discount=0.99, tau=0.005, drop=2):
        self.actor, self.critic = actor, critic
        self.critic_target = copy.deepcopy(critic)
        self.log_alpha = torch.zeros(1, requires_grad=True)
        self.actor_optimizer = torch.optim.Adam(actor.parameters(), lr=3e-4)
        self.critic_optimizer = torch.optim.Adam(critic.parameters(), lr=3e-4)
        self.alpha_optimizer = torch.optim.Adam([self.log_alpha], lr=3e-4)
        self.discount, self.tau, self.drop, self.target_entropy = discount, tau, drop, -float(A)

    def losses(self, state, action, next_state, reward, not_done):
        alpha = torch.exp(self.log_alpha)
        with torch.no_grad():
            next_action, next_log_pi = self.actor(next_state)
            next_z = self.critic_target(next_state, next_action)
            sorted_z, _ = torch.sort(next_z.reshape(state.shape[0], -1))
            target = reward + not_done * self.discount * (sorted_z[:, :-self.drop] - alpha * next_log_pi)
        critic_loss = quantile_huber_loss(self.critic(state, action), target)
        new_action, log_pi = self.actor(state)
        alpha_loss = -self.log_alpha * (log_pi + self.target_entropy).detach().mean()
        actor_loss = (alpha * log_pi - self.critic(state, new_action).mean(2).mean(1, keepdim=True)).mean()
        return critic_loss, actor_loss, alpha_loss

    def train(self, batch):
        critic_loss, actor_loss, alpha_loss = self.losses(*batch)
        self.critic_optimizer.zero_grad()
        critic_loss.backward()
        self.critic_optimizer.step()
        for param, target_param in zip(self.critic.parameters(), self.critic_target.parameters()):
            target_param.data.copy_(self.tau * param.data + (1 - self.tau) * target_param.data)
        self.actor_optimizer.zero_grad()
        actor_loss.backward()
        self.actor_optimizer.step()
        self.alpha_optimizer.zero_grad()
        alpha_loss.backward()
        self.alpha_optimizer.step()


def sample_batch():
    return (torch.randn(B, S), torch.rand(B, A) * 2 - 1, torch.randn(B, S),
            torch.randn(B, 1), torch.ones(B, 1))


trainer = Trainer(Actor(), Critic())
try:
    trainer.train(sample_batch())
    raised = False
except RuntimeError as err:
    raised = "modified by an inplace operation" in str(err)
assert raised


class FixedTrainer(Trainer):
    def train(self, batch):
        critic_loss, _, _ = self.losses(*batch)
        self.critic_optimizer.zero_grad()
        critic_loss.backward()
        self.critic_optimizer.step()
        _, actor_loss, alpha_loss = self.losses(*batch)       # rebuilt on the new critic
        self.actor_optimizer.zero_grad()
        actor_loss.backward()
        self.actor_optimizer.step()
        self.alpha_optimizer.zero_grad()
        alpha_loss.backward()
        self.alpha_optimizer.step()


fixed = FixedTrainer(Actor(), Critic())
before = [p.detach().clone() for p in fixed.actor.parameters()]
for _ in range(3):
    fixed.train(sample_batch())
assert any(not torch.equal(a, b) for a, b in zip(before, fixed.actor.parameters()))
print("ok: critic step before actor_loss.backward() invalidates the actor-loss graph")
