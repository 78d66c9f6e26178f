import torch


class LinearBandit:
    """Contextual bandit: reward = <theta_a, context> + noise."""

    def __init__(self, n_context=8, n_actions=4, seed=0):
        g = torch.Generator().manual_seed(seed)
        self.theta = torch.randn(n_actions, n_context, generator=g)
        self.gen = g
        self.n_context = n_context

    def contexts(self, n):
        return torch.randn(n, self.n_context, generator=self.gen)

    def expected_reward(self, ctx, actions):
        return (self.theta[actions] * ctx).sum(-1)

    def pull(self, ctx, actions):
        r = self.expected_reward(ctx, actions)
        return r + 0.1 * torch.randn(r.shape, generator=self.gen)
