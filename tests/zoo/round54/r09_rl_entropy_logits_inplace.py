"""
expect: GL005 29
dynamic: confirm
source: https://github.com/verl-project/verl/pull/2484

A PPO-style actor update for a tiny language-model policy. The per-token
log-probabilities come from a hand-written autograd Function that, to save the
memory of a second [tokens, vocab] buffer, shifts the logits by their row
maximum IN PLACE inside its forward. The entropy bonus is computed first, from
the very same logits tensor, with ordinary ops (softmax, logsumexp and a
product with the logits), and those ops save the logits for their backward.
The log-prob helper then edits that saved tensor, bumping its version counter,
so when the entropy-regularised loss is backpropagated autograd raises "one of
the variables needed for gradient computation has been modified by an inplace
operation". The asserts catch that error, and show that handing the helper a
clone of the logits (the fix) gives the same gradients as a reference built from
F.log_softmax.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class _TokenLogProb(torch.autograd.Function):
    """log p(label) from logits, shifting the logits in place to save memory."""

    @staticmethod
    def forward(ctx, logits, labels):
        logits -= logits.max(dim=-1, keepdim=True)[0]
        sum_exp = logits.exp().sum(dim=-1, keepdim=True)
        probs = logits.exp() / sum_exp
        picked = logits.gather(-1, labels.unsqueeze(-1)).squeeze(-1)
        ctx.save_for_backward(probs, labels)
        return picked - sum_exp.log().squeeze(-1)

    @staticmethod
    def backward(ctx, grad_out):
        probs, labels = ctx.saved_tensors
        onehot = torch.zeros_like(probs).scatter_(-1, labels.unsqueeze(-1), 1.0)
        return (onehot - probs) * grad_out.unsqueeze(-1), None


def token_log_probs(logits, labels):
    return _TokenLogProb.apply(logits, labels)


def token_entropy(logits):
    p = torch.softmax(logits, dim=-1)
    return torch.logsumexp(logits, dim=-1) - (p * logits).sum(dim=-1)


class TinyPolicy(nn.Module):
    def __init__(self, vocab=50, dim=16):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.body = nn.Sequential(nn.Linear(dim, dim), nn.Tanh())
        self.lm_head = nn.Linear(dim, vocab)

    def forward(self, tokens):
        return self.lm_head(self.body(self.embed(tokens)))


def actor_loss(policy, batch, temperature, entropy_coeff, clone_for_logprob, logprob_fn=token_log_probs):
    logits = policy(batch["tokens"]) / temperature
    entropy = token_entropy(logits)
    lp_in = logits.clone() if clone_for_logprob else logits
    logp = logprob_fn(lp_in, batch["labels"])
    ratio = torch.exp(logp - batch["old_logp"])
    adv = batch["adv"]
    pg = -torch.min(ratio * adv, ratio.clamp(0.8, 1.2) * adv).mean()
    return pg - entropy_coeff * entropy.mean()


def reference_logprob(logits, labels):
    return F.log_softmax(logits, dim=-1).gather(-1, labels.unsqueeze(-1)).squeeze(-1)


def grads_of(policy):
    return [p.grad.clone() for p in policy.parameters()]


def main():
    torch.manual_seed(0)
    torch.set_num_threads(1)
    policy = TinyPolicy()
    batch = {
        "tokens": torch.randint(0, 50, (4, 12)),
        "labels": torch.randint(0, 50, (4, 12)),
        "old_logp": -torch.rand(4, 12) * 4.0,
        "adv": torch.randn(4, 12),
    }

    # 1) as written: entropy saved the logits, then the helper shifted them in place
    policy.zero_grad()
    loss = actor_loss(policy, batch, temperature=0.7, entropy_coeff=0.01, clone_for_logprob=False)
    try:
        loss.backward()
        raised = False
    except RuntimeError as err:
        raised = "modified by an inplace operation" in str(err)
    assert raised, "expected the in-place version-counter error"

    # 2) the fix: the helper gets its own copy of the logits
    policy.zero_grad()
    actor_loss(policy, batch, 0.7, 0.01, clone_for_logprob=True).backward()
    fixed = grads_of(policy)

    policy.zero_grad()
    actor_loss(policy, batch, 0.7, 0.01, clone_for_logprob=False, logprob_fn=reference_logprob).backward()
    ref = grads_of(policy)
    for g_fix, g_ref in zip(fixed, ref):
        assert torch.allclose(g_fix, g_ref, atol=1e-6)
    assert all(g.abs().sum() > 0 for g in fixed)
    print("entropy-bonus actor update: in-place error reproduced; cloned logits match reference")


if __name__ == "__main__":
    main()
