"""Memory-lean vocabulary cross-entropy as a custom autograd Function (Megatron-style)."""
import torch


class VocabCrossEntropy(torch.autograd.Function):
    @staticmethod
    def forward(ctx, logits, target):
        # upcast for numerical safety; for fp32 input this returns the very same tensor
        logits = logits.float()
        logits_max = logits.max(dim=-1, keepdim=True)[0]
        logits -= logits_max
        target_logit = logits.gather(-1, target.unsqueeze(-1)).squeeze(-1)
        exp_logits = logits.exp()
        sum_exp = exp_logits.sum(dim=-1)
        loss = torch.log(sum_exp) - target_logit
        ctx.save_for_backward(exp_logits / sum_exp.unsqueeze(-1), target)
        return loss

    @staticmethod
    def backward(ctx, grad_loss):
        softmax, target = ctx.saved_tensors
        grad = softmax.clone()
        grad.scatter_add_(-1, target.unsqueeze(-1), -torch.ones_like(target, dtype=grad.dtype).unsqueeze(-1))
        return grad * grad_loss.unsqueeze(-1), None


def vocab_cross_entropy(logits, target):
    return VocabCrossEntropy.apply(logits, target)
