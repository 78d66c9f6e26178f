"""
expect: GL002 losses.py:34
dynamic: confirm
source: none, invented

Robotics / arm motion planning. A planner network regresses an 8-step joint-angle trajectory
between a start and a goal pose. losses.py holds a small loss family: the base class
`TrajectoryLoss.__call__` calls `per_joint`, which subclasses override, and weights the
per-joint errors. The wrap-around-aware `WrappedAngleLoss.per_joint` collects one scalar per
joint in a Python list and rebuilds it with `torch.tensor(errs)`, which copies the values
into a fresh leaf tensor and drops the autograd history. The training loop calls the
subclass object, so the loss has no grad_fn and `loss.backward()` raises. The asserts catch
that RuntimeError on the buggy path and show that the fixed subclass (vectorised, no rebuild)
trains the planner and lowers the wrapped-angle error.
"""
import math
import warnings

import torch

from losses import WrappedAngleLoss, WrappedAngleLossFixed
from model import TrajectoryPlanner


def sample_batch(n=64, n_joints=6, horizon=8):
    start = (torch.rand(n, n_joints) * 2 - 1) * math.pi
    goal = (torch.rand(n, n_joints) * 2 - 1) * math.pi
    alpha = torch.linspace(0, 1, horizon).view(1, horizon, 1)
    target = start.unsqueeze(1) + alpha * (goal - start).unsqueeze(1)
    return start, goal, target


def fit(loss_fn, steps=150, seed=0):
    torch.manual_seed(seed)
    planner = TrajectoryPlanner()
    opt = torch.optim.Adam(planner.parameters(), lr=3e-3)
    history = []
    for _ in range(steps):
        start, goal, target = sample_batch()
        pred = planner(start, goal)
        loss = loss_fn(pred, target)
        opt.zero_grad()
        loss.backward()
        opt.step()
        history.append(loss.item())
    return history


def main():
    weights = [2.0, 2.0, 1.5, 1.0, 0.5, 0.5]

    raised = None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            fit(WrappedAngleLoss(weights), steps=5)
        except RuntimeError as exc:
            raised = exc
    assert raised is not None, "buggy loss should not be differentiable"
    assert "does not require grad" in str(raised), raised

    torch.manual_seed(3)
    start, goal, target = sample_batch()
    planner = TrajectoryPlanner()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        bad = WrappedAngleLoss(weights)(planner(start, goal), target)
    good = WrappedAngleLossFixed(weights)(planner(start, goal), target)
    assert bad.grad_fn is None and good.grad_fn is not None
    assert torch.allclose(bad, good.detach(), atol=1e-5)   # same value, history lost

    hist = fit(WrappedAngleLossFixed(weights))
    assert sum(hist[-10:]) / 10 < 0.5 * sum(hist[:10]) / 10, (hist[:3], hist[-3:])
    print(f"fixed loss {hist[0]:.3f} -> {hist[-1]:.3f}")
    print("k02 OK: torch.tensor(list) in per_joint override cuts the graph")


if __name__ == "__main__":
    main()
