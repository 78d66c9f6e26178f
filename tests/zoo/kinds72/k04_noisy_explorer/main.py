"""
expect: GL001 noisy.py:41
dynamic: confirm
source: none, invented

Reinforcement learning exploration with noisy networks. `NoisyLinear` (noisy.py) owns a learnable
`weight_sigma` parameter, initialised in `reset_parameters`, that should scale the exploration noise
and be learned by the TD loss. Its forward only ever reads it inside `(self.weight_sigma * eps).detach()`,
so no gradient reaches it: the Adam optimizer built here over the whole Q-network keeps a parameter that
never changes, and exploration never anneals. The asserts show weight_sigma.grad is None and sigma is
bit-identical after training, while the fixed layer (perturbation left attached) gives sigma gradients
and moves it, and the TD loss still drops.
"""
import torch
import torch.nn.functional as F

from noisy import NoisyLinear
from qnet import NoisyQNetwork


class LearnedNoiseLinear(NoisyLinear):
    def forward(self, x):
        eps = torch.outer(self.eps_out, self.eps_in)
        return F.linear(x, self.weight_mu + self.weight_sigma * eps, self.bias)


def replay_batch(n=128, obs_dim=6, n_actions=3, seed=0):
    g = torch.Generator().manual_seed(seed)
    obs = torch.randn(n, obs_dim, generator=g)
    actions = torch.randint(0, n_actions, (n,), generator=g)
    rewards = obs[:, 0] * (actions == 0).float() - obs[:, 1] * (actions == 1).float()
    return obs, actions, rewards


def fit(head_cls, steps=100):
    torch.manual_seed(0)
    qnet = NoisyQNetwork(head_cls=head_cls)
    optimizer = torch.optim.Adam(qnet.parameters(), lr=3e-3)
    obs, actions, rewards = replay_batch()
    sigma0 = qnet.out_noisy.weight_sigma.detach().clone()
    losses = []
    for _ in range(steps):
        qnet.resample()
        optimizer.zero_grad()
        q = qnet(obs).gather(1, actions[:, None]).squeeze(1)
        loss = F.smooth_l1_loss(q, rewards)
        loss.backward()
        sigma_grad = qnet.out_noisy.weight_sigma.grad
        optimizer.step()
        losses.append(loss.item())
    drift = (qnet.out_noisy.weight_sigma.detach() - sigma0).abs().max().item()
    return losses, sigma_grad, drift


def main():
    losses, sigma_grad, drift = fit(NoisyLinear)
    assert sigma_grad is None
    assert drift == 0.0, drift
    print(f"detached noise: sigma grad None, sigma drift {drift}; TD loss {losses[0]:.3f}->{losses[-1]:.3f}")

    losses, sigma_grad, drift = fit(LearnedNoiseLinear)
    assert sigma_grad is not None and sigma_grad.abs().sum() > 0
    assert drift > 1e-3, drift
    assert losses[-1] < losses[0]
    print(f"learned noise: sigma drift {drift:.4f}; TD loss {losses[0]:.3f}->{losses[-1]:.3f}")


if __name__ == "__main__":
    main()
