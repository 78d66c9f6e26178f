"""expect: none
dynamic: dismiss
source: https://github.com/huggingface/trl/issues/2681

Look-alike. TRL's GRPO trainer writes the policy term as
`torch.exp(per_token_logps - per_token_logps.detach()) * advantages`. An
issue asked whether `x - x.detach()` is not simply zero. It is zero in the
forward pass (so the loss value equals the advantage term), but its
derivative with respect to the log-probabilities is the identity, so the
policy still receives exactly the REINFORCE / single-update PPO gradient. The
completions are sampled under no_grad and the reference log-probs are
computed under no_grad on purpose; neither is a parameter path that should
train. Every policy parameter gets a gradient. Nothing to fix.
"""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F


class TinyPolicy(nn.Module):
    def __init__(self, vocab=12, dim=16):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.rnn = nn.GRU(dim, dim, batch_first=True)
        self.lm_head = nn.Linear(dim, vocab)

    def forward(self, ids):
        h, _ = self.rnn(self.emb(ids))
        return self.lm_head(h)


def token_logps(model, ids):
    logits = model(ids[:, :-1])
    return torch.gather(F.log_softmax(logits, -1), 2, ids[:, 1:, None]).squeeze(-1)


@torch.no_grad()
def sample_group(model, prompt, group, length, g):
    ids = prompt.repeat(group, 1)
    for _ in range(length):
        probs = F.softmax(model(ids)[:, -1], -1)
        ids = torch.cat([ids, torch.multinomial(probs, 1, generator=g)], 1)
    return ids


def reward_fn(ids):
    return (ids[:, 2:] == 3).float().sum(1)          # "count the tokens with id 3"


def grpo_loss(policy, ref_model, ids, beta=0.04):
    per_token_logps = token_logps(policy, ids)
    with torch.no_grad():
        ref_logps = token_logps(ref_model, ids)
    rewards = reward_fn(ids)
    advantages = (rewards - rewards.mean()) / (rewards.std() + 1e-4)
    per_token_kl = torch.exp(ref_logps - per_token_logps) - (ref_logps - per_token_logps) - 1
    per_token_loss = torch.exp(per_token_logps - per_token_logps.detach()) * advantages[:, None]
    per_token_loss = -(per_token_loss - beta * per_token_kl)
    return per_token_loss.mean(), per_token_logps, advantages


torch.manual_seed(0)
g = torch.Generator().manual_seed(0)
policy = TinyPolicy()
ref_model = copy.deepcopy(policy).requires_grad_(False)
ids = sample_group(policy, torch.tensor([[1, 2]]), group=8, length=6, g=g)

loss, logps, adv = grpo_loss(policy, ref_model, ids, beta=0.0)
policy.zero_grad()
loss.backward()
g_grpo = [p.grad.clone() for p in policy.parameters()]

# the same gradient as the textbook policy gradient -(A * log pi).mean()
policy.zero_grad()
(-(token_logps(policy, ids) * adv[:, None]).mean()).backward()
g_pg = [p.grad.clone() for p in policy.parameters()]
assert all(torch.allclose(a, b, atol=1e-6) for a, b in zip(g_grpo, g_pg))
assert all(gr.abs().sum() > 0 for gr in g_grpo)
assert torch.isclose(loss, -adv.mean())            # forward value: exp(0) == 1

# and the full objective (with the KL term) trains every parameter
opt = torch.optim.Adam(policy.parameters(), lr=1e-3)
opt.zero_grad()
grpo_loss(policy, ref_model, ids)[0].backward()
opt.step()
assert all(p.grad is not None for p in policy.parameters())
print("OK")
