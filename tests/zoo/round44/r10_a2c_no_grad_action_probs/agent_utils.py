"""Action selection shared by the DQN and A2C trainers of a dice-game agent."""
import random

import torch


def select_action(agent, state, valid_actions_mask, epsilon=None):
    """Pick a valid action; returns (action index, network output for the state)."""
    valid = [i for i, ok in enumerate(valid_actions_mask) if ok]
    if epsilon is not None and random.random() < epsilon:
        return random.choice(valid), None
    with torch.no_grad():
        values = agent(state.unsqueeze(0))
        masked = values.clone()
        masked[0, ~torch.tensor(valid_actions_mask, dtype=torch.bool)] = -float("inf")
        return masked.argmax().item(), values
