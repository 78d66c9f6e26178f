"""
expect: GL005 77
dynamic: confirm
source: https://github.com/lweitkamp/option-critic-pytorch/issues/4

Option-critic (hierarchical RL) training loop. The report: the features/state for the next
step are computed before optim.step(), so after the step they still come from the old
feature layer and the gradients are biased; the fix re-evaluates the state after the step.
Here the agent's next state keeps its graph, the optimizer then updates the shared feature
and option weights in place, and the next actor loss backpropagates through that stale
graph. The asserts show the stale-state loop fails with the in-place version error on the
second update, while re-computing the state after the step trains for all steps and moves
the option-policy weights.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

OBS, N_OPT, N_ACT = 6, 2, 3


class OptionCritic(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Linear(OBS, 32), nn.ReLU(), nn.Linear(32, 16), nn.ReLU())
        self.q = nn.Linear(16, N_OPT)
        self.term = nn.Linear(16, N_OPT)
        self.options_W = nn.Parameter(torch.randn(N_OPT, 16, N_ACT) * 0.1)
        self.options_b = nn.Parameter(torch.zeros(N_OPT, N_ACT))

    def get_state(self, obs):
        return self.features(obs)

    def get_action(self, state, option):
        logits = state @ self.options_W[option] + self.options_b[option]
        dist = torch.distributions.Categorical(logits=logits)
        a = dist.sample()
        return a, dist.log_prob(a), dist.entropy()


def actor_loss(model, state, option, logp, entropy, reward, next_obs):
    with torch.no_grad():
        next_q = model.q(model.get_state(next_obs))
    q = model.q(state)[option]
    beta = torch.sigmoid(model.term(state)[option])
    adv = (reward + 0.99 * next_q.max() - q).detach()
    return -logp * adv - 0.01 * entropy + beta * (q - next_q.max()).detach()


class Env:
    def __init__(self):
        self.g = torch.Generator().manual_seed(3)

    def reset(self):
        return torch.randn(OBS, generator=self.g)

    def step(self, a):
        return torch.randn(OBS, generator=self.g), float(a == 1)


def train(model, steps, refresh_state):
    env = Env()
    optim = torch.optim.RMSprop(model.parameters(), lr=5e-3)
    obs = env.reset()
    state = model.get_state(obs)
    option = 0
    for _ in range(steps):
        a, logp, ent = model.get_action(state, option)
        next_obs, r = env.step(a.item())
        next_state = model.get_state(next_obs)
        loss = actor_loss(model, state, option, logp, ent, r, next_obs)
        optim.zero_grad()
        loss.backward()
        optim.step()
        state = model.get_state(next_obs) if refresh_state else next_state
        obs = next_obs


bug = OptionCritic()
try:
    train(bug, steps=5, refresh_state=False)
    err = ""
except RuntimeError as e:
    err = str(e)
assert "modified by an inplace operation" in err, err

torch.manual_seed(0)
ok = OptionCritic()
w0 = ok.options_W.detach().clone()
train(ok, steps=5, refresh_state=True)
assert not torch.equal(ok.options_W, w0)
print("stale option-critic state hits the in-place version error; refreshed state trains")
