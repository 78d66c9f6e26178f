"""
expect: none
dynamic: dismiss
source: https://github.com/SeungyounShin/minimal-r1/issues/2

Group-relative policy optimisation (GRPO) for a tiny token policy: for each prompt the
policy samples a group of completions, a rule-based reward scores them, and advantages are
the rewards standardised within the group. The per-token loss is written, as in many R1
reproductions, as exp(logp - logp.detach()) * advantage, with a KL penalty towards a frozen
reference policy evaluated under no_grad. The detach looks like it cuts the policy off,
but the ratio equals 1 in value while its derivative with respect to logp is exactly 1, so
the gradient is the REINFORCE gradient of logp * advantage. The asserts check that the
gradient matches the explicit logp * advantage form, that the reference policy receives
no gradient, and that a few updates raise the average reward.
"""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F


class TokenPolicy(nn.Module):
    def __init__(self, n_prompts=4, vocab=6, length=5, hidden=16):
        super().__init__()
        self.prompt_emb = nn.Embedding(n_prompts, hidden)
        self.pos_emb = nn.Embedding(length, hidden)
        self.head = nn.Linear(hidden, vocab)
        self.length = length

    def logits(self, prompts):  # (B,) -> (B, L, V)
        pos = torch.arange(self.length)
        h = torch.tanh(self.prompt_emb(prompts)[:, None, :] + self.pos_emb(pos)[None])
        return self.head(h)


def reward_fn(tokens, target=3):
    return (tokens == target).float().mean(dim=1)


def grpo_loss(policy, ref_policy, prompts, completions, advantages, beta=0.04, surrogate=True):
    logp_all = F.log_softmax(policy.logits(prompts), dim=-1)
    per_token_logps = logp_all.gather(-1, completions.unsqueeze(-1)).squeeze(-1)
    with torch.no_grad():
        ref_all = F.log_softmax(ref_policy.logits(prompts), dim=-1)
        ref_logps = ref_all.gather(-1, completions.unsqueeze(-1)).squeeze(-1)
    kl = torch.exp(ref_logps - per_token_logps) - (ref_logps - per_token_logps) - 1
    if surrogate:
        per_token = torch.exp(per_token_logps - per_token_logps.detach()) * advantages.unsqueeze(1)
    else:
        per_token = per_token_logps * advantages.unsqueeze(1)
    return -(per_token - beta * kl).mean()


def sample_group(policy, prompts, group_size):
    prompts = prompts.repeat_interleave(group_size)
    with torch.no_grad():
        dist = torch.distributions.Categorical(logits=policy.logits(prompts))
        completions = dist.sample()
    rewards = reward_fn(completions).view(-1, group_size)
    adv = (rewards - rewards.mean(dim=1, keepdim=True)) / (rewards.std(dim=1, keepdim=True) + 1e-4)
    return prompts, completions, adv.view(-1), rewards.mean().item()


torch.manual_seed(0)
torch.set_num_threads(1)
policy = TokenPolicy()
ref_policy = copy.deepcopy(policy).requires_grad_(False)
opt = torch.optim.Adam(policy.parameters(), lr=5e-2)
all_prompts = torch.arange(4)

# the self-detached ratio gives exactly the REINFORCE gradient
prompts, completions, adv, _ = sample_group(policy, all_prompts, group_size=8)
g_surrogate = torch.autograd.grad(grpo_loss(policy, ref_policy, prompts, completions, adv),
                                  list(policy.parameters()))
g_explicit = torch.autograd.grad(grpo_loss(policy, ref_policy, prompts, completions, adv, surrogate=False),
                                 list(policy.parameters()))
for a, b in zip(g_surrogate, g_explicit):
    assert torch.allclose(a, b, atol=1e-6)
assert sum(g.abs().sum().item() for g in g_surrogate) > 0

start_reward = None
for step in range(40):
    prompts, completions, adv, mean_reward = sample_group(policy, all_prompts, group_size=8)
    start_reward = mean_reward if start_reward is None else start_reward
    loss = grpo_loss(policy, ref_policy, prompts, completions, adv)
    opt.zero_grad()
    loss.backward()
    opt.step()
assert all(p.grad is None for p in ref_policy.parameters())
_, _, _, end_reward = sample_group(policy, all_prompts, group_size=64)
assert end_reward > start_reward + 0.2, (start_reward, end_reward)
print("mean reward %.2f -> %.2f" % (start_reward, end_reward))
