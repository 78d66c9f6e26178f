"""PPO/GRPO helpers shared by the reward path and the actor loss."""
import torch


def masked_mean(x, mask):
    return (x * mask).sum() / mask.sum().clamp(min=1.0)


@torch.no_grad()
def compute_approx_kl(log_probs, log_probs_base, loss_mask=None):
    """k3 estimator of KL(policy || reference) per token (Schulman's approximation)."""
    log_ratio = torch.clamp(log_probs_base - log_probs, min=-20, max=20)
    kld = torch.clamp(torch.exp(log_ratio) - log_ratio - 1, min=-10, max=10)
    if loss_mask is not None:
        kld = torch.where(loss_mask.bool(), kld * loss_mask, 0.0)
    return kld


def policy_loss(log_probs, old_log_probs, advantages, loss_mask, clip=0.2):
    ratio = torch.exp(log_probs - old_log_probs)
    surr = torch.min(ratio * advantages, torch.clamp(ratio, 1 - clip, 1 + clip) * advantages)
    return -masked_mean(surr, loss_mask)
