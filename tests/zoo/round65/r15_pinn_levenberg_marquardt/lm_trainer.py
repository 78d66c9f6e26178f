"""A small Levenberg-Marquardt trainer: residuals -> Jacobian -> damped Gauss-Newton step."""
import torch


class LevenbergMarquardtTrainer:
    def __init__(self, model, residual_fn, damping=1e-2, grad_in_residual=False):
        self.model = model
        self.residual_fn = residual_fn
        self.damping = damping
        self.grad_in_residual = grad_in_residual
        self.params = [p for p in model.parameters() if p.requires_grad]

    def _residuals(self, inputs):
        if self.grad_in_residual:
            with torch.enable_grad():
                return self.residual_fn(self.model, inputs)
        return self.residual_fn(self.model, inputs)

    @torch.no_grad()
    def _compute_jacobian(self, inputs):
        residuals = self._residuals(inputs)
        rows = []
        with torch.enable_grad():
            for r in residuals:
                g = torch.autograd.grad(r, self.params, retain_graph=True)
                rows.append(torch.cat([x.reshape(-1) for x in g]))
        return torch.stack(rows), residuals.detach()

    @torch.no_grad()
    def _apply_update(self, delta):
        offset = 0
        for p in self.params:
            n = p.numel()
            p.add_(delta[offset:offset + n].view_as(p))
            offset += n

    def training_step(self, inputs):
        J, r = self._compute_jacobian(inputs)
        JtJ = J.T @ J
        rhs = J.T @ r
        A = JtJ + self.damping * torch.eye(JtJ.shape[0])
        delta = -torch.linalg.solve(A, rhs)
        self._apply_update(delta)
        return (r ** 2).mean().item()
