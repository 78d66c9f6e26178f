"""
expect: GL002 agent.py:19
dynamic: confirm
source: none, invented

Advantage actor-critic on a 7-cell corridor (start in the middle, +1 for reaching the right end,
-1 for the left end, small step cost).  `ActorCritic.evaluate` in agent.py returns log-probs,
entropies and state values; the values are rebuilt with
`torch.tensor(self.critic(states)...detach(), dtype=torch.float32, requires_grad=True)`, which makes a
fresh leaf holding the critic's numbers.  The value loss `mse(values, returns)` then back-propagates
into that leaf and stops: the critic's parameters never get a gradient, so the baseline stays at its
random initialisation while the actor still learns from the (poor) advantages.  The asserts show that
the critic's `.grad` is None and its weights are unchanged after training; using the critic output
directly makes the critic's value error on the start state drop.
"""
import warnings

import torch
import torch.nn.functional as F

from agent import ActorCritic

warnings.filterwarnings("ignore", message="To copy construct from a tensor")
torch.manual_seed(0)
torch.set_num_threads(1)

N_CELLS, GAMMA = 7, 0.95


def one_hot(pos):
    return F.one_hot(torch.tensor(pos), N_CELLS).float()


def rollout(agent, max_steps=30):
    pos, states, actions, rewards = N_CELLS // 2, [], [], []
    for _ in range(max_steps):
        obs = one_hot(pos)
        a = agent.act(obs)
        pos += 1 if a == 1 else -1
        r = 1.0 if pos == N_CELLS - 1 else (-1.0 if pos == 0 else -0.01)
        states.append(obs)
        actions.append(a)
        rewards.append(r)
        if pos in (0, N_CELLS - 1):
            break
    returns, g = [], 0.0
    for r in reversed(rewards):
        g = r + GAMMA * g
        returns.insert(0, g)
    return torch.stack(states), torch.tensor(actions), torch.tensor(returns)


def train(critic_output_direct, episodes=300):
    torch.manual_seed(0)
    agent = ActorCritic(N_CELLS, 2)
    opt = torch.optim.Adam(agent.parameters(), lr=1e-2)
    critic_start = {k: v.clone() for k, v in agent.critic.state_dict().items()}
    for ep in range(episodes):
        states, actions, returns = rollout(agent)
        log_probs, entropy, values = agent.evaluate(states, actions)
        if critic_output_direct:
            values = agent.critic(states).squeeze(-1)
        advantage = returns - values.detach()
        loss = -(log_probs * advantage).mean() + 0.5 * F.mse_loss(values, returns) - 0.01 * entropy.mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    grads = [p.grad for p in agent.critic.parameters()]
    moved = any(not torch.equal(critic_start[k], v) for k, v in agent.critic.state_dict().items())
    with torch.no_grad():
        start_value = agent.critic(one_hot(N_CELLS // 2)).item()
    true_value = GAMMA ** 2 - 0.01 * (1 + GAMMA)
    return grads, moved, abs(start_value - true_value)


if __name__ == "__main__":
    grads, moved, err_v1 = train(critic_output_direct=False)
    assert all(g is None for g in grads) and not moved
    grads, moved, err_direct = train(critic_output_direct=True)
    assert moved and all(g is not None for g in grads)
    assert err_direct < 0.2 and err_direct < err_v1, (err_direct, err_v1)
    print(f"k14: critic rebuilt as a leaf stays untrained (value error {err_v1:.2f}) vs {err_direct:.2f}")
