"""Cautious AdamW: Adam updates masked to the coordinates that agree in sign with the gradient."""
import torch


class CautiousAdamW(torch.optim.Optimizer):
    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.0):
        super().__init__(params, dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay))

    @torch.no_grad()
    def step(self, closure=None):
        loss = None
        if closure is not None:
            loss = closure()
        for group in self.param_groups:
            b1, b2 = group["betas"]
            for p in group["params"]:
                if p.grad is None:
                    continue
                state = self.state[p]
                if not state:
                    state["t"] = 0
                    state["m"] = torch.zeros_like(p)
                    state["v"] = torch.zeros_like(p)
                state["t"] += 1
                g = p.grad
                state["m"].lerp_(g, 1 - b1)
                state["v"].mul_(b2).addcmul_(g, g, value=1 - b2)
                m_hat = state["m"] / (1 - b1 ** state["t"])
                v_hat = state["v"] / (1 - b2 ** state["t"])
                update = m_hat / (v_hat.sqrt() + group["eps"])
                mask = (update * g > 0).to(g.dtype)
                mask = mask / mask.mean().clamp(min=1e-3)
                p.mul_(1 - group["lr"] * group["weight_decay"])
                p.add_(update * mask, alpha=-group["lr"])
        return loss
