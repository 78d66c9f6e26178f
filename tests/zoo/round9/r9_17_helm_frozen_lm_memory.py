"""
expect: none
dynamic: dismiss
source: https://github.com/ml-jku/helm/issues/3

HELM-style agent: a frozen pretrained transformer (stand-in for TrXL) serves as a
history memory over projected observation tokens, and only a small CNN encoder of the
current observation plus the actor and critic heads are trained with a PPO-style loss.
Rollouts are collected under torch.no_grad(), and during the update the memory's output
is computed under no_grad and detached before it is concatenated with the CNN features.
Nothing trainable sits upstream of those cuts (the LM and the token projection are frozen
on purpose), so the stop-gradients only save memory. The program asserts CNN, actor and
critic get non-zero gradients and move, while the frozen LM and projection stay put.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

OBS_CH, N_ACTIONS, TOK_DIM, MEM_LEN = 3, 4, 16, 6


class FrozenHistoryLM(nn.Module):
    def __init__(self):
        super().__init__()
        layer = nn.TransformerEncoderLayer(TOK_DIM, nhead=2, dim_feedforward=32, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, num_layers=1)
        self.requires_grad_(False)
        self.eval()

    def forward(self, tokens):
        return self.encoder(tokens)[:, -1]


class HELMPolicy(nn.Module):
    def __init__(self):
        super().__init__()
        self.lm = FrozenHistoryLM()
        self.token_proj = nn.Linear(OBS_CH * 8 * 8, TOK_DIM).requires_grad_(False)
        self.cnn = nn.Sequential(nn.Conv2d(OBS_CH, 8, 3, stride=2, padding=1), nn.ReLU(),
                                 nn.Flatten(), nn.Linear(8 * 4 * 4, 32), nn.ReLU())
        self.actor = nn.Linear(32 + TOK_DIM, N_ACTIONS)
        self.critic = nn.Linear(32 + TOK_DIM, 1)

    def memory_state(self, obs, history_tokens):
        with torch.no_grad():
            token = self.token_proj(obs.flatten(1))
            hidden = self.lm(torch.cat([history_tokens, token[:, None]], dim=1))
        return hidden, token

    def forward(self, obs, history_tokens):
        hidden, _ = self.memory_state(obs, history_tokens)
        h = torch.cat([self.cnn(obs), hidden.detach()], dim=-1)
        return self.actor(h), self.critic(h).squeeze(-1)


@torch.no_grad()
def collect_rollout(policy, n=16):
    obs = torch.rand(n, OBS_CH, 8, 8)
    history = torch.randn(n, MEM_LEN, TOK_DIM)
    logits, values = policy(obs, history)
    dist = torch.distributions.Categorical(logits=logits)
    actions = dist.sample()
    rewards = (actions == obs.mean(dim=(1, 2, 3)).mul(N_ACTIONS).long().clamp(max=N_ACTIONS - 1)).float()
    return obs, history, actions, dist.log_prob(actions), rewards - values


def ppo_update(policy, optimizer, batch, clip=0.2):
    obs, history, actions, old_log_probs, advantages = batch
    logits, values = policy(obs, history)
    log_probs = torch.distributions.Categorical(logits=logits).log_prob(actions)
    ratio = (log_probs - old_log_probs).exp()
    policy_loss = -torch.min(ratio * advantages, ratio.clamp(1 - clip, 1 + clip) * advantages).mean()
    returns = advantages + values.detach()
    value_loss = F.mse_loss(values, returns)
    optimizer.zero_grad()
    (policy_loss + 0.5 * value_loss).backward()
    optimizer.step()


policy = HELMPolicy()
trainable = [p for p in policy.parameters() if p.requires_grad]
optimizer = torch.optim.Adam(trainable, lr=1e-3)
frozen_before = [p.detach().clone() for p in list(policy.lm.parameters()) + list(policy.token_proj.parameters())]
train_before = {n: p.detach().clone() for n, p in policy.named_parameters() if p.requires_grad}

for _ in range(3):
    batch = collect_rollout(policy)
    ppo_update(policy, optimizer, batch)
    for name, p in policy.named_parameters():
        if p.requires_grad:
            assert p.grad is not None and p.grad.abs().sum() > 0, name
        else:
            assert p.grad is None, name

assert all(not torch.equal(train_before[n], p) for n, p in policy.named_parameters() if p.requires_grad)
frozen_after = list(policy.lm.parameters()) + list(policy.token_proj.parameters())
assert all(torch.equal(a, b) for a, b in zip(frozen_before, frozen_after))

print("OK")
