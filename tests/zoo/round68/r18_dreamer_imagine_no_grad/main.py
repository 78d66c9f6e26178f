"""
expect: GL001 rnns.py:29
dynamic: confirm
source: https://github.com/juliusfrost/dreamer-pytorch/commit/4679783a84dd0d301c07033e2df5dc67a075571d

Model-based RL (Dreamer). The actor is trained by imagining trajectories with the
learned latent dynamics and maximising the lambda-returns of the predicted
rewards and values, back-propagating analytically through the dynamics into the
actions. In this commit the imagination rollout wraps the transition step in
torch.no_grad() "to only optimize the policy": every imagined state is then a
constant, so the predicted rewards and values, and the actor loss built from
them, have no path to the actions. The actor loss still back-propagates (into the
reward and value heads), so nothing raises, but the policy never receives a
gradient and never improves. The later fix keeps the graph and only freezes the
world-model parameters. The asserts show that on the default path the policy
gradient is None and the policy never changes, while the fixed
rollout gives the policy a non-zero gradient and raises the imagined return.
"""
import torch
import torch.nn as nn

from rnns import RSSMRollout, TransitionModel

torch.manual_seed(0)
torch.set_num_threads(1)

S, A, B, H = 6, 2, 32, 8


class ActionDecoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(S, 32), nn.ELU(), nn.Linear(32, 2 * A))

    def forward(self, state):
        mean, raw_std = self.net(state).chunk(2, dim=-1)
        dist = torch.distributions.Normal(mean, nn.functional.softplus(raw_std) + 0.1)
        action = torch.tanh(dist.rsample())
        return action, dist


class DenseHead(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(S, 32), nn.ELU(), nn.Linear(32, 1))

    def forward(self, feat):
        return self.net(feat)


def compute_return(reward, value, discount, bootstrap, lambda_=0.95):
    next_values = torch.cat([value[1:], bootstrap[None]], 0)
    target = reward + discount * next_values * (1 - lambda_)
    outputs, accumulated = [], bootstrap
    for t in reversed(range(reward.shape[0])):
        accumulated = target[t] + discount[t] * lambda_ * accumulated
        outputs.append(accumulated)
    return torch.flip(torch.stack(outputs), [0])


class Dreamer:
    def __init__(self, stop_grad_dynamics):
        torch.manual_seed(1)
        self.transition = TransitionModel(S, A)
        self.rollout = RSSMRollout(self.transition, stop_grad_dynamics)
        self.policy = ActionDecoder()
        self.value_model = DenseHead()
        # stands in for a trained reward head: reward grows with the first latent unit
        self.reward_model = lambda feat: feat[..., :1]
        self.actor_optimizer = torch.optim.Adam(self.policy.parameters(), lr=3e-3)

    def actor_loss(self, start_state):
        prev_action = torch.zeros(start_state.shape[0], A)
        imag_state, _ = self.rollout.rollout_policy(H, self.policy, prev_action, start_state)
        imag_reward = self.reward_model(imag_state)
        value = self.value_model(imag_state)
        discount = 0.99 * torch.ones_like(imag_reward)
        returns = compute_return(imag_reward[:-1], value[:-1], discount[:-1], value[-1])
        return -returns.mean()

    def train_actor(self, start_state):
        loss = self.actor_loss(start_state)
        self.actor_optimizer.zero_grad()
        self.value_model.zero_grad()
        loss.backward()
        self.actor_optimizer.step()
        return loss.item()


start = torch.randn(B, S)

agent = Dreamer(stop_grad_dynamics=True)
before = [p.detach().clone() for p in agent.policy.parameters()]
first = agent.train_actor(start)
assert all(p.grad is None for p in agent.policy.parameters())
assert any(p.grad is not None for p in agent.value_model.parameters())
for _ in range(30):
    last = agent.train_actor(start)
assert all(torch.equal(p, b) for p, b in zip(agent.policy.parameters(), before))
print("no_grad imagination: policy grad None, policy unchanged after 31 actor steps")

fixed = Dreamer(stop_grad_dynamics=False)
first_fixed = fixed.train_actor(start)
assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in fixed.policy.parameters())
for _ in range(60):
    last_fixed = fixed.train_actor(start)
assert last_fixed < first_fixed - 0.05, (first_fixed, last_fixed)
print("fixed imagination trains the actor, loss", round(first_fixed, 4), "->", round(last_fixed, 4))
