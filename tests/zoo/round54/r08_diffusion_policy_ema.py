"""
expect: none
dynamic: dismiss
source: https://github.com/real-stanford/diffusion_policy/blob/main/diffusion_policy/model/diffusion/ema_model.py

Diffusion-policy behaviour cloning with an exponential moving average of the weights.
The policy (observation encoder with BatchNorm + noise-prediction MLP) is trained with
the usual epsilon-prediction loss on noised expert action chunks; after every optimizer
step an EMA helper, decorated with @torch.no_grad(), updates a deep copy of the policy
in place (ema.mul_(decay).add_(param.data, ...)) and copies BatchNorm parameters. The
copy is frozen with requires_grad_(False) and only used for evaluation rollouts. The
in-place edits, .data reads and no_grad here are all intended: the EMA copy is never
part of the training graph. The asserts show the trained policy receives gradients and
learns, the EMA weights follow it without ever holding gradients, and training keeps
working across EMA updates.
"""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

OBS, ACT, HORIZON, T = 6, 2, 4, 50


class EMAModel:
    def __init__(self, model, power=2 / 3, max_value=0.9999):
        self.averaged_model = copy.deepcopy(model)
        self.averaged_model.eval()
        self.averaged_model.requires_grad_(False)
        self.power, self.max_value, self.step_count = power, max_value, 0

    def get_decay(self, step):
        value = 1 - (1 + step) ** -self.power
        return 0.0 if step <= 0 else min(value, self.max_value)

    @torch.no_grad()
    def step(self, new_model):
        decay = self.get_decay(self.step_count)
        for module, ema_module in zip(new_model.modules(), self.averaged_model.modules()):
            for param, ema_param in zip(module.parameters(recurse=False),
                                        ema_module.parameters(recurse=False)):
                if isinstance(module, nn.modules.batchnorm._BatchNorm):
                    ema_param.copy_(param.data)
                else:
                    ema_param.mul_(decay)
                    ema_param.add_(param.data, alpha=1 - decay)
        self.step_count += 1


class DiffusionPolicy(nn.Module):
    def __init__(self):
        super().__init__()
        self.obs_encoder = nn.Sequential(nn.Linear(OBS, 32), nn.BatchNorm1d(32), nn.ReLU())
        self.noise_pred = nn.Sequential(
            nn.Linear(32 + ACT * HORIZON + 1, 64), nn.Mish(), nn.Linear(64, ACT * HORIZON)
        )
        betas = torch.linspace(1e-4, 0.2, T)
        self.register_buffer("alpha_bar", torch.cumprod(1 - betas, 0))

    def compute_loss(self, obs, actions):
        cond = self.obs_encoder(obs)
        t = torch.randint(0, T, (obs.shape[0],))
        noise = torch.randn_like(actions)
        ab = self.alpha_bar[t].unsqueeze(-1)
        noisy = ab.sqrt() * actions + (1 - ab).sqrt() * noise
        pred = self.noise_pred(torch.cat([cond, noisy, t.unsqueeze(-1) / T], -1))
        return F.mse_loss(pred, noise)


obs = torch.randn(64, OBS)
expert_actions = torch.tanh(obs[:, :ACT].repeat(1, HORIZON) * 1.5)
policy = DiffusionPolicy()
ema = EMAModel(policy)
opt = torch.optim.AdamW(policy.parameters(), lr=3e-3)

losses = []
for step in range(150):
    loss = policy.compute_loss(obs, expert_actions)
    opt.zero_grad()
    loss.backward()
    assert policy.noise_pred[0].weight.grad is not None
    opt.step()
    ema.step(policy)
    losses.append(loss.item())

assert sum(losses[-10:]) / 10 < 0.6 * sum(losses[:10]) / 10, (losses[:3], losses[-3:])
assert all(p.grad is None and not p.requires_grad for p in ema.averaged_model.parameters())
w, w_ema = policy.noise_pred[0].weight, ema.averaged_model.noise_pred[0].weight
assert not torch.equal(w, w_ema) and (w - w_ema).abs().max() < 0.2
assert torch.equal(policy.obs_encoder[1].weight, ema.averaged_model.obs_encoder[1].weight)
with torch.no_grad():
    ema_loss = ema.averaged_model.compute_loss(obs, expert_actions)
print("train loss %.3f -> %.3f, EMA model loss %.3f" % (losses[0], losses[-1], ema_loss.item()))
