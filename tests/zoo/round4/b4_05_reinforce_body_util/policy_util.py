import numpy as np
import torch


def discounted_returns(rewards, gamma):
    out = np.zeros(len(rewards), dtype=np.float32)
    running = 0.0
    for i in reversed(range(len(rewards))):
        running = rewards[i] + gamma * running
        out[i] = running
    return torch.from_numpy(out)


def normalize(x, eps=1e-8):
    return (x - x.mean()) / (x.std() + eps)


def gather_log_probs(body):
    """Collect the per-step log-probabilities recorded during the episode."""
    return torch.tensor(body.log_probs)


def gather_entropies(body):
    return torch.stack(body.entropies)
