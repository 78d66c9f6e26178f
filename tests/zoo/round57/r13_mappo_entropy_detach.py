"""
expect: GL001 51
dynamic: confirm
source: https://github.com/Arseni1919/MADDPG_algorithm/blob/06de964ab53a1bf443b84a519f4e60cbd051e262/alg_train_ppo_in_ma.py#L168

The repository trains one Gaussian PPO actor per agent of a PettingZoo
multi-agent environment. In update_actors the clipped surrogate is followed by
an "ADD ENTROPY TERM" block that computes the policy entropy, detaches it, and
subtracts 1e-2 times it from the actor loss. Because the entropy is cut from the
record, the term is a constant: it shifts the reported loss but contributes
nothing to any gradient, so the exploration bonus that the block is meant to add
(keeping the std heads from collapsing) never acts. The reproduction uses the
same per-agent update. The asserts show that with the detached entropy the
gradient of the full loss is identical to the gradient of the surrogate alone,
and that on a batch whose advantages are all zero (so only the bonus could move
the policy) the std heads do not change at all over 50 steps; with the entropy
kept in the graph the gradients differ and the policy std grows.
"""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

EPS_CLIP, ENT_COEF = 0.1, 1e-2
AGENTS = ["agent_0", "agent_1", "agent_2"]


class Actor(nn.Module):
    def __init__(self, obs_dim=4, act_dim=2):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(obs_dim, 32), nn.Tanh())
        self.mean = nn.Linear(32, act_dim)
        self.std = nn.Linear(32, act_dim)

    def forward(self, obs):
        h = self.body(obs)
        return self.mean(h), F.softplus(self.std(h)) + 1e-3


def actor_loss(actor, actor_old, obs, actions, adv, fixed):
    mean_old, std_old = actor_old(obs)
    logp_old = torch.distributions.Normal(mean_old, std_old).log_prob(actions).detach().sum(1)
    mean, std = actor(obs)
    dist = torch.distributions.Normal(mean, std)
    ratio = torch.exp(dist.log_prob(actions).sum(1) - logp_old)
    surrogate = -torch.min(ratio * adv, torch.clamp(ratio, 1 - EPS_CLIP, 1 + EPS_CLIP) * adv)
    entropy = dist.entropy().detach().sum(1)
    if fixed:
        entropy = dist.entropy().sum(1)
    return torch.mean(surrogate - ENT_COEF * entropy), surrogate.mean()


def update_actors(actors, actors_old, optims, batch, fixed):
    for name in AGENTS:
        obs, actions, adv = batch[name]
        loss, _ = actor_loss(actors[name], actors_old[name], obs, actions, adv, fixed)
        optims[name].zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(actors[name].parameters(), 40)
        optims[name].step()


def make_batch(zero_adv=False):
    batch = {}
    for name in AGENTS:
        obs = torch.randn(256, 4)
        actions = torch.randn(256, 2)
        adv = torch.zeros(256) if zero_adv else torch.randn(256)
        batch[name] = (obs, actions, adv)
    return batch


def grads_of(loss, params):
    return torch.autograd.grad(loss, params, allow_unused=True)


# 1) the entropy term adds nothing to the gradient when detached
actor = Actor()
actor_old = copy.deepcopy(actor)
obs, actions, adv = make_batch()["agent_0"]
params = list(actor.parameters())
for fixed in (False, True):
    loss, _ = actor_loss(actor, actor_old, obs, actions, adv, fixed)
    g_full = grads_of(loss, params)
    _, surr = actor_loss(actor, actor_old, obs, actions, adv, fixed)
    g_surr = grads_of(surr, params)
    same = all(torch.allclose(a, b) for a, b in zip(g_full, g_surr))
    assert same == (not fixed), fixed


# 2) pure-entropy signal: zero advantages, only the bonus can move the std heads
def run(fixed):
    torch.manual_seed(0)
    actors = {n: Actor() for n in AGENTS}
    actors_old = {n: copy.deepcopy(a) for n, a in actors.items()}
    optims = {n: torch.optim.Adam(a.parameters(), lr=1e-2) for n, a in actors.items()}
    std_before = {n: [p.detach().clone() for p in a.std.parameters()] for n, a in actors.items()}
    probe = torch.randn(128, 4)
    s0 = actors["agent_0"](probe)[1].mean().item()
    for _ in range(50):
        update_actors(actors, actors_old, optims, make_batch(zero_adv=True), fixed)
    s1 = actors["agent_0"](probe)[1].mean().item()
    unchanged = all(torch.equal(b, p.detach()) for n, a in actors.items()
                    for b, p in zip(std_before[n], a.std.parameters()))
    return s0, s1, unchanged


s0, s1, unchanged = run(fixed=False)
assert unchanged and s0 == s1, "detached entropy bonus never moves the std heads"
s0f, s1f, unchanged_f = run(fixed=True)
assert not unchanged_f and s1f > s0f + 0.05, (s0f, s1f)
print("detached entropy: policy std %.3f -> %.3f; entropy in graph: %.3f -> %.3f" % (s0, s1, s0f, s1f))
