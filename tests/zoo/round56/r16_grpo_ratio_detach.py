"""
expect: none
dynamic: dismiss
source: https://github.com/om-ai-lab/VLM-R1/issues/38

VLM-R1's GRPO trainer, like TRL's, builds its policy term as
`torch.exp(per_token_logps - per_token_logps.detach()) * advantages`, and gets
the reference model's log-probs under no_grad for the KL term. A user asked if
it is a bug that both sides of the ratio are the current log-probs, since the
second should come from the old policy. The reply: it is GRPO simplified to a
single update per batch (mu=1), where the old policy is the current one. The
`.detach()` is deliberate. The ratio is 1 in value while its derivative is the
gradient of the log-prob, so the term is the ordinary policy gradient,
advantage times grad log pi. The reference log-probs are a constant target on
purpose. This program builds the same loss for a tiny token policy. The
asserts show that the ratio is exactly 1, that the gradient equals the
REINFORCE gradient, that the frozen reference gets no gradient, and that
training raises the group reward.
"""
import copy

import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)

VOCAB, LEN, GROUP, PROMPTS, DIM = 6, 5, 8, 4, 8
GOOD_TOKEN = 2


class TinyPolicy(nn.Module):
    def __init__(self):
        super().__init__()
        self.pos = nn.Parameter(0.1 * torch.randn(LEN, DIM))
        self.head = nn.Linear(DIM, VOCAB)

    def forward(self, prompt):                      # prompt: (B, DIM)
        h = torch.tanh(prompt[:, None, :] + self.pos[None])
        return self.head(h)                          # (B, LEN, VOCAB)


def token_logps(model, prompts, completions):
    logits = model(prompts)
    return torch.log_softmax(logits, -1).gather(-1, completions[..., None])[..., 0]


def reward_fn(completions):
    return (completions == GOOD_TOKEN).float().mean(-1)


policy = TinyPolicy()
ref_model = copy.deepcopy(policy).requires_grad_(False)
opt = torch.optim.Adam(policy.parameters(), lr=0.05)
prompt_bank = torch.randn(PROMPTS, DIM)
BETA = 0.04


def grpo_batch():
    prompts = prompt_bank.repeat_interleave(GROUP, dim=0)
    with torch.no_grad():
        probs = torch.softmax(policy(prompts), -1)
        completions = torch.distributions.Categorical(probs=probs).sample()
    rewards = reward_fn(completions).view(PROMPTS, GROUP)
    adv = (rewards - rewards.mean(1, keepdim=True)) / (rewards.std(1, keepdim=True) + 1e-4)
    return prompts, completions, adv.view(-1), rewards.mean().item()


def grpo_loss(prompts, completions, advantages, with_kl=True):
    per_token_logps = token_logps(policy, prompts, completions)
    with torch.no_grad():
        ref_per_token_logps = token_logps(ref_model, prompts, completions)
    ratio = torch.exp(per_token_logps - per_token_logps.detach())
    per_token_loss = -(ratio * advantages[:, None])
    if with_kl:
        diff = ref_per_token_logps - per_token_logps
        per_token_loss = per_token_loss + BETA * (torch.exp(diff) - diff - 1)
    return per_token_loss.mean(), ratio


# 1) value of the ratio is exactly one, gradient equals REINFORCE.
prompts, completions, adv, _ = grpo_batch()
loss, ratio = grpo_loss(prompts, completions, adv, with_kl=False)
assert torch.equal(ratio, torch.ones_like(ratio))
g_grpo = torch.autograd.grad(loss, list(policy.parameters()))
reinforce = -(token_logps(policy, prompts, completions) * adv[:, None]).mean()
g_reinforce = torch.autograd.grad(reinforce, list(policy.parameters()))
for a, b in zip(g_grpo, g_reinforce):
    assert torch.allclose(a, b, atol=1e-7)
    assert a.abs().sum() > 0

# 2) training with the full loss improves the reward; the reference stays frozen.
ref_before = [p.clone() for p in ref_model.parameters()]
start_reward = None
for step in range(60):
    prompts, completions, adv, mean_reward = grpo_batch()
    if start_reward is None:
        start_reward = mean_reward
    opt.zero_grad()
    loss, _ = grpo_loss(prompts, completions, adv)
    loss.backward()
    opt.step()
with torch.no_grad():
    p_good = torch.softmax(policy(prompt_bank), -1)[..., GOOD_TOKEN].mean().item()
assert all(p.grad is None for p in ref_model.parameters())
assert all(torch.equal(a, b) for a, b in zip(ref_before, ref_model.parameters()))
assert p_good > 0.6 and p_good > 2 * start_reward, (start_reward, p_good)
print("ratio == 1, grad == REINFORCE grad; P(good token) %.2f -> %.2f" % (start_reward, p_good))
