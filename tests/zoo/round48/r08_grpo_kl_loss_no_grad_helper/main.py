"""expect: GL001 worker.py:15
dynamic: confirm
source: https://github.com/NovaSky-AI/SkyRL/issues/1340

GRPO fine-tuning of a tiny language-model policy with a KL-to-reference loss term (use_kl_loss style).
The actor loss adds kl_loss_coef * masked_mean(kl), but the per-token KL comes from compute_approx_kl, a
helper decorated with @torch.no_grad() because it was first written for the reward path. Called inside
the actor loss it returns a constant: the loss value includes the KL and logs fine, yet the KL term sends
no gradient into the policy, so the policy is never pulled back toward the reference. The asserts use
zero advantages, so the whole loss is the KL term: with the decorated helper the policy gets no gradient
at all and the total gradient equals that of the clipped policy loss alone, while the same KL computed
with grad enabled does push the policy.
"""
import torch
import torch.nn as nn

import ppo_utils
from worker import actor_loss, token_log_probs

torch.manual_seed(0)
torch.set_num_threads(1)

V, D = 20, 16
policy = nn.Sequential(nn.Embedding(V, D), nn.Linear(D, D), nn.Tanh(), nn.Linear(D, V))
reference = nn.Sequential(nn.Embedding(V, D), nn.Linear(D, D), nn.Tanh(), nn.Linear(D, V))
tokens = torch.randint(0, V, (6, 10))
mask = torch.ones(6, 9)
mask[:, :3] = 0  # prompt tokens are not trained
with torch.no_grad():
    ref_lp = token_log_probs(reference, tokens)
    old_lp = token_log_probs(policy, tokens)
batch = {"tokens": tokens, "mask": mask, "ref_log_probs": ref_lp, "old_log_probs": old_lp,
         "advantages": torch.zeros(6, 9)}

loss, kl_loss = actor_loss(policy, batch, kl_loss_coef=1.0)
assert kl_loss.item() > 1e-3  # the policy really is far from the reference
loss.backward()
grads = [p.grad for p in policy.parameters()]
assert all(g is None or g.abs().max() == 0 for g in grads), "KL term unexpectedly produced a gradient"

# intended: the same estimator with autograd on
policy.zero_grad(set_to_none=True)
kl_with_grad = ppo_utils.compute_approx_kl.__wrapped__(
    token_log_probs(policy, tokens), ref_lp, loss_mask=mask)
ppo_utils.masked_mean(kl_with_grad, mask).backward()
assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in policy.parameters())
print(f"kl_loss={kl_loss.item():.3f}: decorated helper -> no policy gradient; grad-enabled KL -> gradient")
