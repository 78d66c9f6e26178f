"""
expect: GL003 linesearch.py:18
dynamic: confirm
source: none, invented

Wind energy. ``YawController`` finds yaw offsets that steer turbine wakes away from
downstream machines to raise total farm power. Each iteration takes a gradient step
and hands its bound method ``self.objective`` to ``armijo_step`` (linesearch.py),
which probes trial points inside ``torch.inference_mode()``. The objective computes
its value *and gradient* with ``loss.backward()``, and under the line search's
inference mode the loss has no grad_fn, so the first trial raises "does not require
grad". The asserts catch that error from the buggy optimiser, then show that an
objective which re-enters ``torch.inference_mode(False)`` + ``enable_grad`` lets the
same line search run and the yaw schedule beats the zero-yaw farm power.
"""
import torch

from farm import TurbineRow
from linesearch import armijo_step


class YawController:
    def __init__(self, row, yaw_limit_deg=30.0, smooth_weight=1e-3):
        self.row = row
        self.limit = torch.deg2rad(torch.tensor(yaw_limit_deg))
        self.smooth_weight = smooth_weight

    def _loss(self, yaw):
        over = torch.relu(yaw.abs() - self.limit)
        return -self.row.power(yaw) + 10.0 * (over ** 2).sum() + self.smooth_weight * (yaw ** 2).sum()

    def objective(self, yaw):
        yaw = yaw.detach().clone().requires_grad_(True)
        loss = self._loss(yaw)
        loss.backward()
        return loss.detach(), yaw.grad

    def optimise(self, iters=25):
        yaw = torch.full((len(self.row.x),), 0.05)
        yaw[-1] = 0.0  # the last turbine has no one downstream
        f, g = self.objective(yaw)
        for _ in range(iters):
            yaw, f, g, _step = armijo_step(self.objective, yaw, -g, f, g, step=0.5)
            yaw = yaw.clone()
        return yaw, f


class GradAwareYawController(YawController):
    """Fixed variant: the objective turns autograd back on for its own backward."""

    def objective(self, yaw):
        with torch.inference_mode(False), torch.enable_grad():
            yaw = yaw.clone().requires_grad_(True)
            loss = self._loss(yaw)
            loss.backward()
        return loss.detach(), yaw.grad


def main():
    torch.set_num_threads(1)
    row = TurbineRow(n_turbines=5)
    baseline = float(row.power(torch.zeros(5)))

    # --- buggy path ---
    err = None
    try:
        YawController(row).optimise()
    except RuntimeError as exc:
        err = exc
    assert err is not None and "does not require grad" in str(err), err
    print("buggy: objective.backward() inside the line search's inference_mode raised:",
          str(err).splitlines()[0])

    # --- fixed objective ---
    yaw, f = GradAwareYawController(row).optimise()
    steered = float(row.power(yaw))
    print("fixed: yaw (deg)", [round(v, 1) for v in torch.rad2deg(yaw).tolist()],
          "power %.3f -> %.3f" % (baseline, steered))
    assert steered > 1.03 * baseline, (baseline, steered)
    assert float(yaw.abs().max()) <= float(torch.deg2rad(torch.tensor(31.0)))


if __name__ == "__main__":
    main()
