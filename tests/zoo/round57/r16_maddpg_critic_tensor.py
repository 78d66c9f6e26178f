"""
expect: GL002 58
dynamic: confirm
source: https://github.com/Emmanuel-Naive/MADDPG/blob/f6b1e88e7a7a762b279c8ebf0445fe4f5d82399b/maddpg.py#L110

In this MADDPG learn() (commit "MADDPG algorithm V1.1") each agent's critic loss
is the MSE between Q_i(s, a) and the TD target, and right before backward it is
rebuilt with T.tensor(critic_loss.clone(), dtype=T.float, requires_grad=True).
torch.tensor() copies only the value of the loss into a brand-new leaf, so the
backward that follows stops at that leaf: the critic parameters never receive a
gradient and critic.optimizer.step() does nothing, while the printed critic loss
looks normal. (The rebuild was one of several attempts in the repository's
history to silence autograd errors in this loop.) The reproduction keeps the
critic update of that commit for three agents and writes the actor update
correctly so only the critic mechanism is under test. The asserts show that
after 30 learn() calls every critic is bit-identical and the critic loss never
leaves a gradient on its parameters, while with the loss kept as computed the
critics move and the TD error drops.
"""
import copy
import warnings

import torch
import torch.nn as nn
import torch.nn.functional as F

warnings.filterwarnings("ignore", message="To copy construct from a tensor")
torch.manual_seed(0)
torch.set_num_threads(1)

N, OBS, ACT, B = 3, 4, 2, 64


class Agent:
    def __init__(self):
        self.actor = nn.Sequential(nn.Linear(OBS, 32), nn.ReLU(), nn.Linear(32, ACT), nn.Tanh())
        self.critic = nn.Sequential(nn.Linear(N * OBS + N * ACT, 64), nn.ReLU(), nn.Linear(64, 1))
        self.target_actor = copy.deepcopy(self.actor)
        self.target_critic = copy.deepcopy(self.critic)
        self.actor_opt = torch.optim.Adam(self.actor.parameters(), lr=1e-3)
        self.critic_opt = torch.optim.Adam(self.critic.parameters(), lr=3e-3)
        self.gamma = 0.95


def learn(agents, batch, fixed):
    states, obs, actions, rewards, states_, obs_, dones = batch
    new_actions = torch.cat([ag.target_actor(obs_[i]) for i, ag in enumerate(agents)], dim=1)
    old_actions = torch.cat(actions, dim=1)
    losses = []
    for i, agent in enumerate(agents):
        critic_value_ = agent.target_critic(torch.cat([states_, new_actions], 1)).flatten()
        critic_value_ = critic_value_.masked_fill(dones.bool(), 0.0)
        critic_value = agent.critic(torch.cat([states, old_actions], 1)).flatten()
        target = rewards[:, i] + agent.gamma * critic_value_.detach()
        critic_loss = F.mse_loss(critic_value, target)
        agent.critic_opt.zero_grad()
        if not fixed:
            critic_loss = torch.tensor(critic_loss.clone(), dtype=torch.float, requires_grad=True)
        critic_loss.backward()
        got_grad = any(p.grad is not None for p in agent.critic.parameters())
        agent.critic_opt.step()
        losses.append((critic_loss.item(), got_grad))

        # actor: own current action, the other agents' stored actions
        joint = [agent.actor(obs[i]) if j == i else actions[j] for j in range(N)]
        actor_loss = -agent.critic(torch.cat([states, torch.cat(joint, 1)], 1)).mean()
        agent.actor_opt.zero_grad()
        actor_loss.backward()
        agent.actor_opt.step()
    return losses


# a fixed replay buffer of transitions with a learnable reward structure
torch.manual_seed(0)
M = 2048
buf_obs = [torch.randn(M, OBS) for _ in range(N)]
buf_obs_ = [torch.randn(M, OBS) for _ in range(N)]
buf_act = [torch.rand(M, ACT) * 2 - 1 for _ in range(N)]
buf_rew = torch.stack([(buf_obs[i][:, 0] + buf_act[i][:, 0]) for i in range(N)], dim=1)
buf_done = (torch.rand(M) < 0.1).float()


def sample(gen):
    idx = torch.randint(0, M, (B,), generator=gen)
    obs = [o[idx] for o in buf_obs]
    obs_ = [o[idx] for o in buf_obs_]
    return (torch.cat(obs, 1), obs, [a[idx] for a in buf_act], buf_rew[idx],
            torch.cat(obs_, 1), obs_, buf_done[idx])


def run(fixed):
    torch.manual_seed(0)
    agents = [Agent() for _ in range(N)]
    before = [[p.detach().clone() for p in ag.critic.parameters()] for ag in agents]
    gen = torch.Generator().manual_seed(0)
    hist = [learn(agents, sample(gen), fixed) for _ in range(30)]
    changed = any(not torch.equal(b, p.detach()) for ag, bs in zip(agents, before)
                  for b, p in zip(bs, ag.critic.parameters()))
    no_grad = not any(g for h in hist for _, g in h)
    first = sum(l for l, _ in hist[0]) / N
    last = sum(l for h in hist[-5:] for l, _ in h) / (5 * N)
    return changed, no_grad, first, last


changed, no_grad, first, last = run(fixed=False)
assert not changed and no_grad, "rebuilt loss: critics never receive a gradient"
changed_f, no_grad_f, first_f, last_f = run(fixed=True)
assert changed_f and not no_grad_f
assert last_f < 0.7 * first_f, (first_f, last_f)
print("torch.tensor(loss): critics frozen (td loss %.3f -> %.3f); kept loss: %.3f -> %.3f"
      % (first, last, first_f, last_f))
