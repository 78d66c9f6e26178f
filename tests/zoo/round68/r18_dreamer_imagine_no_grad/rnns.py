import torch
import torch.nn as nn


class TransitionModel(nn.Module):
    """Deterministic latent dynamics s_{t+1} = f(s_t, a_t) of the world model."""

    def __init__(self, state_size, action_size, hidden=32):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(state_size + action_size, hidden), nn.ELU(),
                                 nn.Linear(hidden, state_size))

    def forward(self, action, state):
        return state + self.net(torch.cat([state, action], dim=-1))


class RSSMRollout(nn.Module):
    def __init__(self, transition_model, stop_grad_dynamics=True):
        super().__init__()
        self.transition_model = transition_model
        self.stop_grad_dynamics = stop_grad_dynamics

    def rollout_policy(self, steps, policy, prev_action, prev_state):
        """Imagine `steps` latent states by acting with `policy` from prev_state."""
        state, action = prev_state, prev_action
        priors, actions = [], []
        for t in range(steps):
            if self.stop_grad_dynamics:
                with torch.no_grad():  # stop gradients here to only optimize policy
                    state = self.transition_model(action, state)
            else:
                state = self.transition_model(action, state)
            action, _ = policy(state)
            priors.append(state)
            actions.append(action)
        return torch.stack(priors, dim=0), torch.stack(actions, dim=0)
