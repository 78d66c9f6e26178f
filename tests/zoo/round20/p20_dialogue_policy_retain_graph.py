"""
expect: none
dynamic: dismiss
source: https://github.com/andy194673/joust/issues/4

A dialogue-system codebase that jointly trains a dialogue policy and a user simulator with RL
calls `update_loss.backward(retain_graph=True)` in its update function; the issue asks why, since
every loss is backpropagated only once. The flag is unnecessary but harmless there: each update
builds a new graph from fresh rollouts and nothing carries it into the next update, so nothing
accumulates (and the optimizer step never edits a graph that is used again). The program runs
REINFORCE updates of a small dialogue-act policy that way and asserts the graph behind every
update has the same size, backward never fails, and the expected reward rises.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)
STATE, ACTS, TURNS = 10, 5, 4


def n_nodes(t):
    seen, stack = set(), [t.grad_fn]
    while stack:
        f = stack.pop()
        if f is None or f in seen:
            continue
        seen.add(f)
        stack.extend(g for g, _ in f.next_functions)
    return len(seen)


class DialoguePolicy(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(STATE, 32), nn.Tanh(), nn.Linear(32, ACTS))

    def forward(self, belief):
        return torch.distributions.Categorical(logits=self.net(belief))


def reward_fn(belief, act):
    # the "right" dialogue act depends on which slot the user has not filled yet
    return (act == belief[:, :ACTS].argmin(-1)).float()


class Trainer:
    def __init__(self):
        self.policy = DialoguePolicy()
        self.optimizer = torch.optim.Adam(self.policy.parameters(), lr=1e-2)

    def rollout(self, n=32):
        logps, rewards = [], []
        for _ in range(TURNS):
            belief = torch.rand(n, STATE)
            dist = self.policy(belief)
            act = dist.sample()
            logps.append(dist.log_prob(act))
            rewards.append(reward_fn(belief, act))
        return torch.stack(logps, 1), torch.stack(rewards, 1)

    def update(self):
        logps, rewards = self.rollout()
        returns = rewards.flip(1).cumsum(1).flip(1)
        update_loss = -(logps * (returns - returns.mean())).mean()
        size = n_nodes(update_loss)
        self.optimizer.zero_grad()
        update_loss.backward(retain_graph=True)
        self.optimizer.step()
        return size, rewards.mean().item()


trainer = Trainer()
sizes, rewards = [], []
for it in range(150):
    size, r = trainer.update()
    sizes.append(size)
    rewards.append(r)
print(f"graph sizes {set(sizes)}, mean reward {sum(rewards[:10]) / 10:.2f} -> {sum(rewards[-10:]) / 10:.2f}")
assert len(set(sizes)) == 1, "a new graph of the same size every update: nothing accumulates"
assert sum(rewards[-10:]) / 10 > sum(rewards[:10]) / 10 + 0.15
print("OK")
