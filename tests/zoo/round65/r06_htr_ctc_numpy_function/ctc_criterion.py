"""CTC criterion computed outside torch (NumPy forward-backward), wrapped in an
autograd.Function that supplies its own gradient -- the pattern used when the CTC
graph lives in an external library."""
import numpy as np
import torch

NEG_INF = -1e30


def _ctc_alpha_beta(lp, target, blank):
    """lp: [T, C] log-probabilities (numpy), target: list of labels."""
    T = lp.shape[0]
    ext = [blank]
    for c in target:
        ext += [c, blank]
    S = len(ext)
    alpha = np.full((T, S), NEG_INF)
    beta = np.full((T, S), NEG_INF)
    alpha[0, 0] = lp[0, ext[0]]
    if S > 1:
        alpha[0, 1] = lp[0, ext[1]]
    for t in range(1, T):
        for s in range(S):
            a = alpha[t - 1, s]
            if s >= 1:
                a = np.logaddexp(a, alpha[t - 1, s - 1])
            if s >= 2 and ext[s] != blank and ext[s] != ext[s - 2]:
                a = np.logaddexp(a, alpha[t - 1, s - 2])
            alpha[t, s] = a + lp[t, ext[s]]
    beta[T - 1, S - 1] = lp[T - 1, ext[S - 1]]
    if S > 1:
        beta[T - 1, S - 2] = lp[T - 1, ext[S - 2]]
    for t in range(T - 2, -1, -1):
        for s in range(S):
            b = beta[t + 1, s]
            if s + 1 < S:
                b = np.logaddexp(b, beta[t + 1, s + 1])
            if s + 2 < S and ext[s] != blank and ext[s] != ext[s + 2]:
                b = np.logaddexp(b, beta[t + 1, s + 2])
            beta[t, s] = b + lp[t, ext[s]]
    log_p = np.logaddexp(alpha[T - 1, S - 1], alpha[T - 1, S - 2]) if S > 1 else alpha[T - 1, 0]
    # d(-log p)/d lp[t, k] = -sum_{s: ext[s]=k} exp(alpha+beta-lp-log_p)
    grad = np.zeros_like(lp)
    occ = alpha + beta
    for s in range(S):
        grad[:, ext[s]] -= np.exp(occ[:, s] - lp[:, ext[s]] - log_p)
    return -log_p, grad


class CTCLossFunction(torch.autograd.Function):
    @staticmethod
    def forward(ctx, log_probs, targets, blank_idx=0, reduction="mean"):
        B, T, C = log_probs.shape
        cpu_data = log_probs.detach().cpu().numpy().astype(np.float64)
        losses, scales, grads = [None] * B, [None] * B, [None] * B
        for b in range(B):
            loss_b, grad_b = _ctc_alpha_beta(cpu_data[b], targets[b], blank_idx)
            scale = 1.0
            if reduction == "mean":
                L = len(targets[b])
                scale = 1.0 / L if L > 0 else scale
            losses[b] = torch.tensor(loss_b)
            scales[b] = scale
            grads[b] = grad_b * scale
        ctx.auxiliary_data = (np.stack(grads), log_probs.dtype)
        loss = torch.tensor([losses[b].item() * scales[b] for b in range(B)])
        return torch.mean(loss).to(log_probs.dtype)

    @staticmethod
    def backward(ctx, grad_output):
        grads, dtype = ctx.auxiliary_data
        B = grads.shape[0]
        g = torch.from_numpy(grads).to(dtype) * grad_output / B
        return g, None, None, None


CTCLoss = CTCLossFunction.apply
