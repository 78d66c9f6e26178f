"""Hyper-grid environment for a GFlowNet (base-environment helpers)."""
import torch


class GridEnv:
    def __init__(self, n_dim=2, length=4, float_dtype=torch.float32):
        self.n_dim = n_dim
        self.length = length
        self.float = float_dtype
        # one action per dimension (+1 step) and a final end-of-sequence action
        self.action_space = [(d,) for d in range(n_dim)] + [("eos",)]
        self.eos = len(self.action_space) - 1
        self.policy_output_dim = len(self.action_space)
        self.source = [0] * n_dim

    def reset(self):
        self.state = list(self.source)
        self.done = False
        return self

    def state2policy(self, states):
        states = torch.as_tensor(states, dtype=torch.long)
        one_hot = torch.zeros(states.shape[0], self.n_dim * self.length, dtype=self.float)
        for d in range(self.n_dim):
            one_hot[torch.arange(states.shape[0]), d * self.length + states[:, d]] = 1.0
        return one_hot

    def get_mask_invalid_actions_forward(self, state=None):
        state = self.state if state is None else state
        return [state[d] >= self.length - 1 for d in range(self.n_dim)] + [False]

    def step(self, action_idx):
        if action_idx == self.eos:
            self.done = True
        else:
            self.state[action_idx] += 1
        return self.state, self.done

    def reward(self, state):
        x = torch.tensor(state, dtype=self.float) / (self.length - 1)
        return 0.1 + (torch.cos(6.0 * x).prod() + 1.0)

    def sample_actions(self, policy_outputs, mask=None, temperature_logits=1.0):
        logits = policy_outputs.clone().detach()
        logits /= temperature_logits
        if mask is not None:
            logits[mask] = -torch.inf
        return torch.distributions.Categorical(logits=logits).sample()

    def get_logprobs(self, policy_outputs, actions, mask=None):
        ns_range = torch.arange(policy_outputs.shape[0])
        logits = policy_outputs.clone().detach()
        if mask is not None:
            logits[mask] = -torch.inf
        logprobs = torch.log_softmax(logits, dim=1)
        return logprobs[ns_range, actions]
