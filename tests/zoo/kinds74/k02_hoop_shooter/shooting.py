"""Scalar shooting-method solver used by the launcher calibration tools.

The caller supplies ``residual_fn(v) -> (residual, slope)``; the solver runs a
damped Newton iteration on the launch speed.  The iteration itself is never
differentiated, so it runs without building a graph.
"""
from dataclasses import dataclass

import torch


@dataclass
class ShootingResult:
    speed: torch.Tensor
    residual: torch.Tensor
    iterations: int
    converged: bool


def _newton_update(residual_fn, v, damping):
    r, slope = residual_fn(v)
    step = r / slope.clamp_min(1e-6) if slope >= 0 else r / slope.clamp_max(-1e-6)
    return v - damping * step, r


def newton_shoot(residual_fn, v0, tol=1e-4, max_iter=30, damping=1.0, v_bounds=(0.5, 30.0)):
    v = torch.as_tensor(v0, dtype=torch.float32)
    r = torch.tensor(float("inf"))
    with torch.no_grad():
        for it in range(1, max_iter + 1):
            v_next, r = _newton_update(residual_fn, v, damping)
            v = v_next.clamp(*v_bounds)
            if r.abs() < tol:
                return ShootingResult(v, r, it, True)
    return ShootingResult(v, r, max_iter, False)
