"""Actor worker: one GRPO update on a batch of sampled completions."""
import torch

from ppo_utils import compute_approx_kl, masked_mean, policy_loss


def token_log_probs(policy, tokens):
    logits = policy(tokens[:, :-1])
    return torch.log_softmax(logits, -1).gather(-1, tokens[:, 1:, None]).squeeze(-1)


def actor_loss(policy, batch, kl_loss_coef=0.1):
    log_probs = token_log_probs(policy, batch["tokens"])
    pg_loss = policy_loss(log_probs, batch["old_log_probs"], batch["advantages"], batch["mask"])
    kl = compute_approx_kl(log_probs, batch["ref_log_probs"], loss_mask=batch["mask"])
    kl_loss = masked_mean(kl, batch["mask"])
    return pg_loss + kl_loss_coef * kl_loss, kl_loss
