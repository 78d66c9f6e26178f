"""
expect: GL004 73
dynamic: confirm
source: https://github.com/vwxyzjn/cleanrl/commit/5a3a092564a9fcf2cb748ca2ad23007989567f2e

Early PPO script (continuous actions, separate policy and value networks; the
value function here is a linear baseline on the observation). During the
rollout the value estimates are written into a tensor while autograd is
recording, and in the update epochs the value loss is built from that rollout
tensor instead of a fresh forward pass. The second epoch would fail with
"backward through the graph a second time", so backward is called with
retain_graph=True. That silences the error but every epoch now backpropagates
through the rollout-time graph: the value loss and the value gradient are the
same in every epoch no matter how far the critic has already moved.
Recomputing the values inside each epoch makes the loss track the update.
"""
import numpy as np
import torch
import torch.nn as nn
from torch.distributions import Normal

torch.manual_seed(0)
torch.set_num_threads(1)
rng = np.random.default_rng(0)

OBS, T, EPOCHS, GAMMA, CLIP = 3, 16, 4, 0.99, 0.2


class Policy(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(OBS, 32), nn.Tanh(), nn.Linear(32, 1))
        self.logstd = nn.Parameter(torch.zeros(1, 1))

    def dist(self, x):
        mean = self.body(x)
        return Normal(mean, self.logstd.expand_as(mean).exp())


def rollout(pg, vf):
    obs = rng.normal(size=(T, OBS)).astype(np.float32)
    actions, rewards, logprobs = np.zeros((T, 1)), np.zeros(T), np.zeros(T)
    values = torch.zeros(T)
    for step in range(T):
        x = torch.from_numpy(obs[step:step + 1])
        values[step] = vf(x)
        d = pg.dist(x)
        action = d.sample()
        actions[step] = action.data.numpy()[0]
        logprobs[step] = d.log_prob(action).sum(1).data.numpy()[0]
        rewards[step] = -(actions[step, 0] - obs[step, 0]) ** 2
    returns = np.zeros(T)
    returns[-1] = rewards[-1]
    for t in reversed(range(T - 1)):
        returns[t] = rewards[t] + GAMMA * returns[t + 1]
    return obs, actions, logprobs, returns, values


def update(pg, vf, optimizer, batch, fresh_values, retain):
    obs, actions, logprobs, returns, values = batch
    advantages = torch.tensor(returns - values.detach().numpy(), dtype=torch.float32)
    vf_losses, vf_grads = [], []
    for _ in range(EPOCHS):
        x = torch.from_numpy(obs)
        newlogproba = pg.dist(x).log_prob(torch.tensor(actions, dtype=torch.float32)).sum(1)
        ratio = torch.exp(newlogproba - torch.tensor(logprobs, dtype=torch.float32))
        policy_loss = -torch.min(ratio * advantages, ratio.clamp(1 - CLIP, 1 + CLIP) * advantages).mean()
        v = vf(x).flatten() if fresh_values else values
        vf_loss = (v - torch.tensor(returns, dtype=torch.float32)).pow(2).mean()
        total_loss = policy_loss + 0.5 * vf_loss
        optimizer.zero_grad()
        if retain:
            total_loss.backward(retain_graph=True)
        else:
            total_loss.backward()
        vf_losses.append(vf_loss.item())
        vf_grads.append(vf.weight.grad.clone())
        optimizer.step()
    return vf_losses, vf_grads


def make():
    pg, vf = Policy(), nn.Linear(OBS, 1)
    return pg, vf, torch.optim.Adam(list(pg.parameters()) + list(vf.parameters()), lr=0.05)


pg, vf, opt = make()
losses, grads = update(pg, vf, opt, rollout(pg, vf), fresh_values=False, retain=True)
assert len(set(losses)) == 1
assert all(torch.equal(grads[0], g) for g in grads[1:])

pg, vf, opt = make()
try:
    update(pg, vf, opt, rollout(pg, vf), fresh_values=False, retain=False)
    raised = False
except RuntimeError as err:
    raised = "second time" in str(err)
assert raised

pg, vf, opt = make()
losses, grads = update(pg, vf, opt, rollout(pg, vf), fresh_values=True, retain=False)
assert losses[-1] < losses[0]
assert not torch.equal(grads[0], grads[-1])
print("rollout values + retain_graph: same value loss every epoch; fresh values: value loss falls")
