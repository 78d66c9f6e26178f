"""Backtracking (Armijo) line search used by the farm-control optimisers.

``objective(x)`` must return ``(value, grad)``.  Trial points are only probed,
never differentiated through, so the probing runs in inference mode.
"""
import torch


class LineSearchFailed(RuntimeError):
    pass


def armijo_step(objective, x, direction, f0, g0, step=1.0, shrink=0.5, c1=1e-4, max_trials=20):
    """Return (new_x, new_value, new_grad, step) satisfying the sufficient-decrease rule."""
    slope = float((g0 * direction).sum())
    if slope >= 0:
        raise LineSearchFailed("direction is not a descent direction")
    with torch.inference_mode():
        for _ in range(max_trials):
            trial = x + step * direction
            f_trial, g_trial = objective(trial)
            if f_trial <= f0 + c1 * step * slope:
                return trial.clone(), f_trial, g_trial, step
            step *= shrink
    raise LineSearchFailed(f"no sufficient decrease after {max_trials} trials")
