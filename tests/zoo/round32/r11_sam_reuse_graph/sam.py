import torch


class SAM(torch.optim.Optimizer):
    """Hand-written sharpness-aware minimisation wrapper around a base optimizer."""

    def __init__(self, params, base_cls, rho=0.05, **kw):
        super().__init__(params, dict(rho=rho, **kw))
        self.base = base_cls(self.param_groups, **kw)

    def _grad_norm(self):
        norms = [p.grad.norm(2) for g in self.param_groups for p in g["params"] if p.grad is not None]
        return torch.norm(torch.stack(norms), 2)

    def first_step(self):
        scale = self.param_groups[0]["rho"] / (self._grad_norm() + 1e-12)
        with torch.no_grad():
            for g in self.param_groups:
                for p in g["params"]:
                    if p.grad is None:
                        continue
                    e_w = p.grad * scale
                    self.state[p]["e_w"] = e_w
                    p.add_(e_w)  # climb to the local worst case
        self.zero_grad()

    def second_step(self):
        with torch.no_grad():
            for g in self.param_groups:
                for p in g["params"]:
                    if "e_w" in self.state[p]:
                        p.sub_(self.state[p]["e_w"])
        self.base.step()
        self.zero_grad()
