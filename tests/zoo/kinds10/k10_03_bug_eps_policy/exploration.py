"""Exploration helpers for discrete-action policies."""
import torch


def mix_uniform_(probs, epsilon):
    """Blend a categorical distribution with the uniform one, in place."""
    n_actions = probs.shape[-1]
    probs.mul_(1.0 - epsilon).add_(epsilon / n_actions)
    return probs


def linear_epsilon(step, start=0.5, end=0.05, decay_steps=100):
    frac = min(step / decay_steps, 1.0)
    return start + frac * (end - start)


def sample_actions(probs):
    with torch.no_grad():
        return torch.multinomial(probs, 1).squeeze(1)
