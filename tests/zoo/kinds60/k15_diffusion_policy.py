"""
expect: GL001 59
dynamic: confirm
source: none, invented

A small diffusion policy for behaviour cloning: an observation encoder turns the state into a conditioning
vector and a noise-prediction MLP denoises the action given that vector. `DiffusionPolicy` takes a constructor
argument `cond_stop_grad`, and `compute_loss` does `cond = cond.detach() if self.cond_stop_grad else cond`.
The training config's default is `cond_stop_grad=True` (carried over from a run with a pretrained encoder), and
`main` builds the policy from that config, while the AdamW optimizer is built from `policy.parameters()`,
encoder included. The conditioning is the encoder's only path to the loss, so with the flag as run the encoder
never gets a gradient and stays at its random initialization, and the denoiser can only use random features
of the state. The asserts show the encoder's `.grad` is None and its weights unchanged after training; the same
script with `dataclasses.replace(cfg, cond_stop_grad=False)` trains the encoder and reaches a lower
noise-prediction loss.
"""
import dataclasses
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


@dataclasses.dataclass
class TrainConfig:
    obs_dim: int = 10
    act_dim: int = 3
    cond_dim: int = 8
    hidden: int = 128
    diffusion_steps: int = 50
    lr: float = 1e-3
    epochs: int = 40
    batch_size: int = 128
    cond_stop_grad: bool = True


def sinusoidal(t, dim=16):
    half = dim // 2
    freqs = torch.exp(-math.log(500.0) * torch.arange(half) / half)
    args = t.float()[:, None] * freqs[None]
    return torch.cat([args.sin(), args.cos()], dim=-1)


class DiffusionPolicy(nn.Module):
    def __init__(self, obs_dim, act_dim, cond_dim, hidden, diffusion_steps, cond_stop_grad=False):
        super().__init__()
        self.obs_encoder = nn.Sequential(nn.Linear(obs_dim, 64), nn.Mish(), nn.Linear(64, cond_dim))
        self.noise_pred = nn.Sequential(nn.Linear(act_dim + cond_dim + 16, hidden), nn.Mish(),
                                        nn.Linear(hidden, hidden), nn.Mish(), nn.Linear(hidden, act_dim))
        self.cond_stop_grad = cond_stop_grad
        self.register_buffer("alpha_bar", torch.cumprod(1 - torch.linspace(1e-4, 0.1, diffusion_steps), 0))

    def compute_loss(self, obs, action):
        cond = self.obs_encoder(obs)
        cond = cond.detach() if self.cond_stop_grad else cond
        t = torch.randint(0, self.alpha_bar.shape[0], (obs.shape[0],))
        noise = torch.randn_like(action)
        ab = self.alpha_bar[t][:, None]
        noisy = ab.sqrt() * action + (1 - ab).sqrt() * noise
        pred = self.noise_pred(torch.cat([noisy, cond, sinusoidal(t)], dim=-1))
        return F.mse_loss(pred, noise)


def expert_demos(cfg, n=4000):
    g = torch.Generator().manual_seed(1)
    w = torch.randn(cfg.obs_dim, cfg.act_dim, generator=g)
    obs = torch.randn(n, cfg.obs_dim, generator=g)
    action = torch.tanh(obs @ w + 0.5 * torch.sin(3 * obs[:, :cfg.act_dim]))
    return obs, action


def train(cfg):
    torch.manual_seed(0)
    policy = DiffusionPolicy(cfg.obs_dim, cfg.act_dim, cfg.cond_dim, cfg.hidden, cfg.diffusion_steps,
                             cond_stop_grad=cfg.cond_stop_grad)
    opt = torch.optim.AdamW(policy.parameters(), lr=cfg.lr, weight_decay=1e-4)
    enc0 = [p.detach().clone() for p in policy.obs_encoder.parameters()]
    obs, action = expert_demos(cfg)
    for epoch in range(cfg.epochs):
        for idx in torch.randperm(obs.shape[0]).split(cfg.batch_size):
            loss = policy.compute_loss(obs[idx], action[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
    torch.manual_seed(99)
    with torch.no_grad():
        final = sum(policy.compute_loss(obs, action).item() for _ in range(10)) / 10
    return policy, enc0, final


def main():
    cfg = TrainConfig()
    policy, enc0, loss = train(cfg)
    assert all(p.grad is None for p in policy.obs_encoder.parameters())
    assert all(torch.equal(a, b) for a, b in zip(enc0, policy.obs_encoder.parameters()))

    policy2, enc0, loss2 = train(dataclasses.replace(cfg, cond_stop_grad=False))
    assert not any(torch.equal(a, b) for a, b in zip(enc0, policy2.obs_encoder.parameters()))
    assert loss2 < loss, (loss, loss2)
    print(f"noise-prediction mse {loss:.4f} (encoder at init) vs {loss2:.4f} (encoder trained)")


if __name__ == "__main__":
    main()
