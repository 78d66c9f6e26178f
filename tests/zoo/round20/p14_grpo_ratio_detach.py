"""
expect: none
dynamic: dismiss
source: https://github.com/lsdefine/simple_GRPO/issues/33

A minimal GRPO trainer for LLMs writes the per-token loss as
`torch.exp(per_token_logps - per_token_logps.detach()) * advantages`; the issue objected that the
exponent is always 0, and later withdrew it: the detached copy makes the ratio equal 1 in value
while its gradient is exactly advantage * d log p, the on-policy policy gradient. This program
trains a tiny token policy with group-normalised rewards using that expression; it asserts the
ratio is 1, the gradient equals the plain REINFORCE gradient, every parameter gets a gradient and
the mean reward rises.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)
VOCAB, LEN, GROUP, TARGET = 6, 5, 16, 3


class TinyPolicy(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, 16)
        self.out = nn.Linear(16, VOCAB)

    def forward(self, tokens):
        return self.out(self.emb(tokens)).log_softmax(-1)


def per_token_logps(policy, prompt, completion):
    inputs = torch.cat([prompt, completion[:, :-1]], dim=1)
    logp = policy(inputs)
    return logp.gather(-1, completion.unsqueeze(-1)).squeeze(-1)


def sample(policy, prompt):
    with torch.no_grad():
        toks, cur = [], prompt
        for _ in range(LEN):
            nxt = torch.distributions.Categorical(logits=policy(cur[:, -1:])[:, -1]).sample()
            toks.append(nxt)
            cur = torch.cat([cur, nxt[:, None]], dim=1)
    return torch.stack(toks, dim=1)


def grpo_loss(policy, prompt, completion, rewards):
    adv = (rewards - rewards.mean()) / (rewards.std() + 1e-4)
    logps = per_token_logps(policy, prompt, completion)
    per_token_loss = torch.exp(logps - logps.detach()) * adv[:, None]
    return -per_token_loss.mean(), logps


policy = TinyPolicy()
opt = torch.optim.Adam(policy.parameters(), lr=5e-2)
prompt = torch.zeros(GROUP, 1, dtype=torch.long)
mean_rewards = []
for it in range(40):
    completion = sample(policy, prompt)
    rewards = (completion == TARGET).float().sum(1)
    mean_rewards.append(rewards.mean().item())
    loss, logps = grpo_loss(policy, prompt, completion, rewards)
    opt.zero_grad()
    loss.backward()
    if it == 0:
        ratio = torch.exp(logps - logps.detach())
        assert torch.equal(ratio, torch.ones_like(ratio))
        g_grpo = [p.grad.clone() for p in policy.parameters()]
        assert all(g.abs().sum() > 0 for g in g_grpo)
        policy.zero_grad()
        adv = (rewards - rewards.mean()) / (rewards.std() + 1e-4)
        reinforce = -(per_token_logps(policy, prompt, completion) * adv[:, None]).mean()
        reinforce.backward()
        assert all(torch.allclose(a, p.grad, atol=1e-6) for a, p in zip(g_grpo, policy.parameters()))
    opt.step()

print(f"mean reward {sum(mean_rewards[:5]) / 5:.2f} -> {sum(mean_rewards[-5:]) / 5:.2f}")
assert sum(mean_rewards[-5:]) > sum(mean_rewards[:5]) + 1.0
print("OK")
