"""
expect: GL001 grpo.py:17
dynamic: confirm
source: https://github.com/allenai/open-instruct/issues/530

A GRPO fine-tuning loop for a tiny token policy, split as in the report: the rollout phase
(grpo.py, rollout_stats) computes the policy log-probs, the frozen reference log-probs and the
per-token KL estimate (the k3 estimator) inside one torch.no_grad() block, and the update phase adds beta * kl to
the clipped policy-gradient loss. Because the KL tensor was produced under no_grad it is a
constant: it changes the printed loss value but contributes nothing to the gradient, so the
KL penalty never pulls the policy back towards the reference. The asserts show that the
gradient with beta=0.5 equals the gradient with beta=0, that with equal rewards in each group
(zero advantages) every parameter gradient is zero and the policy does not move, and that the
repaired objective (KL rebuilt from the fresh log-probs) gives a non-zero gradient and shrinks
the KL over a few steps.
"""
import copy

import torch
import torch.nn as nn

from grpo import grpo_loss, grpo_loss_recomputed_kl, rollout_stats, token_logprobs

torch.manual_seed(0)
torch.set_num_threads(1)

VOCAB, DIM, GROUP, PROMPTS, LENGTH = 12, 16, 4, 3, 7


class TinyPolicy(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, DIM)
        self.mix = nn.Linear(DIM, DIM)
        self.head = nn.Linear(DIM, VOCAB)

    def forward(self, tokens):
        return self.head(torch.tanh(self.mix(self.embed(tokens))))


ref_policy = TinyPolicy()
for p in ref_policy.parameters():
    p.requires_grad_(False)
policy = copy.deepcopy(ref_policy)
for p in policy.parameters():
    p.requires_grad_(True)
with torch.no_grad():  # the policy has drifted away from the reference during earlier steps
    for p in policy.parameters():
        p.add_(0.3 * torch.randn_like(p))

tokens = torch.randint(0, VOCAB, (GROUP * PROMPTS, LENGTH))


def grads(loss):
    policy.zero_grad()
    loss.backward()
    return [p.grad.clone() for p in policy.parameters()]


# 1) With informative rewards: the KL coefficient does not change the gradient at all.
rewards = torch.randn(GROUP * PROMPTS)
old_lp, ref_lp, kl, adv = rollout_stats(policy, ref_policy, tokens, rewards, GROUP)
assert kl.abs().mean() > 0.05 and not kl.requires_grad
g_beta = grads(grpo_loss(policy, tokens, old_lp, adv, kl, beta=0.5))
g_zero = grads(grpo_loss(policy, tokens, old_lp, adv, kl, beta=0.0))
assert all(torch.allclose(a, b) for a, b in zip(g_beta, g_zero))

# 2) Equal rewards inside each group -> zero advantages: only the KL term could move the policy.
flat = torch.ones(GROUP * PROMPTS)
old_lp, ref_lp, kl, adv = rollout_stats(policy, ref_policy, tokens, flat, GROUP)
g = grads(grpo_loss(policy, tokens, old_lp, adv, kl, beta=0.5))
assert all(t.abs().max() == 0 for t in g)
opt = torch.optim.SGD(policy.parameters(), lr=0.5)
before = [p.detach().clone() for p in policy.parameters()]
for _ in range(5):
    opt.zero_grad()
    grpo_loss(policy, tokens, old_lp, adv, kl, beta=0.5).backward()
    opt.step()
assert all(torch.equal(a, p) for a, p in zip(before, policy.parameters()))

# 3) Repaired objective: the KL term now has a gradient and pulls the policy to the reference.
g_fixed = grads(grpo_loss_recomputed_kl(policy, tokens, old_lp, ref_lp, adv, beta=0.5))
assert sum(t.abs().sum() for t in g_fixed) > 0
def k3(lp):
    d = ref_lp - lp
    return (torch.expm1(d) - d).mean().item()


kl_start = k3(token_logprobs(policy, tokens))
opt = torch.optim.Adam(policy.parameters(), lr=0.02)
for _ in range(60):
    opt.zero_grad()
    grpo_loss_recomputed_kl(policy, tokens, old_lp, ref_lp, adv, beta=0.5).backward()
    opt.step()
kl_end = k3(token_logprobs(policy, tokens))
assert 0 <= kl_end < 0.5 * kl_start
print(f"KL term inert under the rollout no_grad; repaired loss moves KL {kl_start:.3f} -> {kl_end:.3f}")
