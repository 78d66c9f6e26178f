import torch.nn.functional as F


class ActorCriticLoss:
    """Advantage actor-critic objective with an entropy bonus."""

    def __init__(self, value_coef=0.5, entropy_coef=0.01):
        self.value_coef = value_coef
        self.entropy_coef = entropy_coef

    def __call__(self, log_probs, values, returns, advantages, entropy):
        policy = -(advantages * log_probs).mean()
        value = F.mse_loss(values, returns)
        return policy + self.value_coef * value - self.entropy_coef * entropy.mean()
