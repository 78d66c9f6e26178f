"""Rollout statistics and the clipped GRPO objective for a toy token policy."""
import torch
import torch.nn.functional as F


def token_logprobs(model, tokens):
    logits = model(tokens[:, :-1])
    logp = F.log_softmax(logits, dim=-1)
    return logp.gather(-1, tokens[:, 1:].unsqueeze(-1)).squeeze(-1)


def rollout_stats(policy, ref_policy, tokens, rewards, group_size):
    """Everything computed from the sampled completions before the update epochs."""
    with torch.no_grad():
        logprobs = token_logprobs(policy, tokens)
        ref_logprobs = token_logprobs(ref_policy, tokens)
        kl = torch.expm1(ref_logprobs - logprobs) - (ref_logprobs - logprobs)
        grouped = rewards.view(-1, group_size)
        mean = grouped.mean(dim=1).repeat_interleave(group_size)
        std = grouped.std(dim=1).repeat_interleave(group_size)
        advantages = (rewards - mean) / (std + 1e-8)
    return logprobs, ref_logprobs, kl, advantages


def grpo_loss(policy, tokens, old_logprobs, advantages, kl, beta, clip=0.2):
    new_logprobs = token_logprobs(policy, tokens)
    ratio = torch.exp(new_logprobs - old_logprobs)
    pg1 = -advantages[:, None] * ratio
    pg2 = -advantages[:, None] * torch.clamp(ratio, 1.0 - clip, 1.0 + clip)
    return (torch.max(pg1, pg2) + beta * kl).mean()


def grpo_loss_recomputed_kl(policy, tokens, old_logprobs, ref_logprobs, advantages, beta, clip=0.2):
    """The repaired objective: the KL estimate is rebuilt from the fresh log-probs."""
    new_logprobs = token_logprobs(policy, tokens)
    ratio = torch.exp(new_logprobs - old_logprobs)
    pg1 = -advantages[:, None] * ratio
    pg2 = -advantages[:, None] * torch.clamp(ratio, 1.0 - clip, 1.0 + clip)
    kl = torch.expm1(ref_logprobs - new_logprobs) - (ref_logprobs - new_logprobs)
    return (torch.max(pg1, pg2) + beta * kl).mean()
