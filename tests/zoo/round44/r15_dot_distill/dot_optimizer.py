"""Distillation-Oriented Trainer: SGD with separate momenta for the KD gradient and the task gradient."""
import torch
from torch.optim import Optimizer


class DOTOptimizer(Optimizer):
    """Call pattern: kd.backward(retain_graph=True); step_kd(); zero_grad(); ce.backward(); step()."""

    def __init__(self, params, lr=0.1, momentum=0.9, momentum_kd=0.95):
        super().__init__(params, dict(lr=lr, momentum=momentum, momentum_kd=momentum_kd))
        self._kd_grads = []
        self._kd_params = []

    @torch.no_grad()
    def step_kd(self):
        # only remember the KD gradients; parameters are not touched here
        group = self.param_groups[0]
        self._kd_params = [p for p in group["params"] if p.grad is not None]
        self._kd_grads = [p.grad for p in self._kd_params]

    @torch.no_grad()
    def step(self):
        group = self.param_groups[0]
        lr, m, m_kd = group["lr"], group["momentum"], group["momentum_kd"]
        for p in group["params"]:
            if p.grad is None:
                continue
            state = self.state[p]
            buf = state.get("task_buf")
            state["task_buf"] = buf = p.grad.clone() if buf is None else buf.mul_(m).add_(p.grad)
            p.add_(buf, alpha=-lr)
        for p, g in zip(self._kd_params, self._kd_grads):
            state = self.state[p]
            buf = state.get("kd_buf")
            state["kd_buf"] = buf = g.clone() if buf is None else buf.mul_(m_kd).add_(g)
            p.add_(buf, alpha=-lr)
        self._kd_params, self._kd_grads = [], []
