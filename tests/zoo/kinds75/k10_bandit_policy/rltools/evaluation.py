"""Greedy evaluation of a bandit policy; runnable as a script for quick checks."""
import sys

import torch


def greedy_reward(policy, contexts, reward_table):
    with torch.no_grad():
        actions = policy(contexts).argmax(dim=-1)
        return reward_table(contexts, actions).mean().item()


if __name__ == "__main__":
    # stand-alone evaluation of a saved policy: nothing here ever trains
    torch.set_grad_enabled(False)
    policy = torch.load(sys.argv[1], weights_only=False)
    print(policy)
