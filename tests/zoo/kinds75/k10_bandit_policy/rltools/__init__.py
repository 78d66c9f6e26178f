"""rltools: rollout and evaluation helpers for the contextual-bandit project."""
from .evaluation import greedy_reward
from .kernels import warm_up_kernels

__all__ = ["greedy_reward", "warm_up_kernels"]
