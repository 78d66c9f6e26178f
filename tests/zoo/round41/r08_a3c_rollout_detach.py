"""
expect: none
dynamic: dismiss
source: https://github.com/ikostrikov/pytorch-a3c/issues/76

An A3C worker with an LSTMCell policy: at the start of each rollout the recurrent state is
either reset (episode ended) or carried over with hx.detach() / cx.detach(), then num_steps
environment steps are taken feeding (hx, cx) back into the cell, and the n-step actor-critic
loss of the whole rollout is backpropagated once. The issue asks whether the detaches stop
the LSTM from learning. They do not: they only cut the link to the previous rollout, whose
graph was already consumed by its own backward; inside the rollout the hidden state keeps
its history, so the loss of late steps reaches the inputs of early steps (truncated BPTT).
The asserts check that the recurrent-weight gradient of a rollout differs from the one of
a variant that detaches at every step (so gradient does flow back through the steps of the
rollout), that the graph backpropagated per update has the same size every rollout (no
history piles up across rollouts), and that all weights move.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

OBS, HID, ACTIONS, NUM_STEPS = 6, 16, 3, 5


class ActorCritic(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Linear(OBS, HID)
        self.lstm = nn.LSTMCell(HID, HID)
        self.actor = nn.Linear(HID, ACTIONS)
        self.critic = nn.Linear(HID, 1)

    def forward(self, state, hidden):
        x = F.elu(self.encoder(state))
        hx, cx = self.lstm(x, hidden)
        return self.critic(hx), self.actor(hx), (hx, cx)


class CueEnv:
    """Reward depends on a cue shown a few steps earlier, so memory matters."""

    def __init__(self):
        self.gen = torch.Generator().manual_seed(1)
        self.t, self.cue = 0, 0

    def reset(self):
        self.t, self.cue = 0, int(torch.randint(ACTIONS, (1,), generator=self.gen))
        return self._obs()

    def _obs(self):
        obs = torch.randn(OBS, generator=self.gen) * 0.1
        if self.t == 0:
            obs[self.cue] += 1.0
        return obs

    def step(self, action):
        self.t += 1
        rew = 1.0 if (self.t % 4 == 0 and action == self.cue) else 0.0
        done = self.t >= 12
        return self._obs(), rew, done


def rollout_loss(model, env, state, hx, cx, done, detach_each_step=False, gamma=0.99):
    if done:
        hx, cx = torch.zeros(1, HID), torch.zeros(1, HID)
    else:
        hx, cx = hx.detach(), cx.detach()
    values, log_probs, entropies, rewards = [], [], [], []
    for _ in range(NUM_STEPS):
        value, logit, (hx, cx) = model(state.unsqueeze(0), (hx, cx))
        if detach_each_step:
            hx, cx = hx.detach(), cx.detach()
        prob, log_prob = F.softmax(logit, -1), F.log_softmax(logit, -1)
        action = prob.multinomial(1, generator=torch.Generator().manual_seed(len(values))).detach()
        state, reward, done = env.step(int(action))
        values.append(value)
        log_probs.append(log_prob.gather(1, action))
        entropies.append(-(log_prob * prob).sum(1))
        rewards.append(reward)
        if done:
            state = env.reset()
            break
    R = torch.zeros(1, 1) if done else model(state.unsqueeze(0), (hx, cx))[0].detach()
    policy_loss, value_loss = 0, 0
    for i in reversed(range(len(rewards))):
        R = gamma * R + rewards[i]
        advantage = R - values[i]
        value_loss = value_loss + 0.5 * advantage.pow(2)
        policy_loss = policy_loss - log_probs[i] * advantage.detach() - 0.01 * entropies[i]
    loss = (policy_loss + 0.5 * value_loss).sum()
    return loss, values, state, hx, cx, done


def graph_size(fn):
    seen, stack = set(), [fn]
    while stack:
        node = stack.pop()
        if node is None or node in seen:
            continue
        seen.add(node)
        stack.extend(n for n, _ in node.next_functions)
    return len(seen)


model = ActorCritic()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
env = CueEnv()
state, hx, cx, done = env.reset(), torch.zeros(1, HID), torch.zeros(1, HID), True

# Second rollout of the episode: state carried over with detach.
loss, values, state, hx, cx, done = rollout_loss(model, env, state, hx, cx, done)
loss.backward()
optimizer.zero_grad()
saved = (state.clone(), hx.clone(), cx.clone(), done)
env_state = (env.gen.get_state(), env.t, env.cue)
loss, values, _, _, _, _ = rollout_loss(model, env, state, hx, cx, done)
assert len(values) == NUM_STEPS
loss.backward()
grad_bptt = model.lstm.weight_hh.grad.clone()

model.zero_grad()
env.gen.set_state(env_state[0]); env.t, env.cue = env_state[1], env_state[2]
loss1, *_ = rollout_loss(model, env, saved[0], saved[1], saved[2], saved[3], detach_each_step=True)
loss1.backward()
assert not torch.allclose(grad_bptt, model.lstm.weight_hh.grad), "gradient should include BPTT terms"

before = [p.detach().clone() for p in model.parameters()]
sizes = []
for _ in range(12):
    optimizer.zero_grad()
    loss, values, state, hx, cx, done = rollout_loss(model, env, state, hx, cx, done)
    if len(values) == NUM_STEPS:
        sizes.append(graph_size(loss.grad_fn))
    loss.backward()
    optimizer.step()
assert len(set(sizes)) == 1, sizes
assert all(not torch.equal(b, p) for b, p in zip(before, model.parameters()))
print(f"BPTT inside each rollout, graph of {sizes[0]} nodes per full-length update; all weights updated")
