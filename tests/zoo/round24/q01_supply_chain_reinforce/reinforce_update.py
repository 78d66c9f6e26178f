import numpy as np
import torch


def discounted_returns(rewards, gamma):
    out, running = [], 0.0
    for r in reversed(rewards):
        running = r + gamma * running
        out.insert(0, running)
    return torch.tensor(out, dtype=torch.float32)


def reinforce_step(optimizer, rewards, order_means, actions, sigma, gamma=0.95):
    """One REINFORCE update for the ordering policy of a single-echelon supply chain.

    rewards / order_means / actions are the per-period records kept by the rollout.
    """
    returns = discounted_returns(rewards, gamma)
    returns = (returns - returns.mean()) / (returns.std() + 1e-8)

    means = torch.tensor(np.array(order_means), dtype=torch.float32, requires_grad=True)
    acts = torch.tensor(np.array(actions), dtype=torch.float32)
    log_probs = torch.distributions.Normal(means, sigma).log_prob(acts)

    loss = -(log_probs * returns).sum()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss.item()
