"""
expect: GL003 shooting.py:29
dynamic: confirm
source: none, invented

Robotics. A basketball-shooting robot calibrates its launch speed for a given hoop
distance with a Newton shooting solver (shooting.py). The solver takes a residual
callback and calls it, through its helper ``_newton_update``, inside its own
``with torch.no_grad():`` block. The calibration script hands it
``residual_and_slope``, which gets the Newton slope d(height error)/d(speed) by
``torch.autograd.grad`` through the drag-integrated flight. Under the solver's
no_grad the flight builds no graph, so autograd.grad raises "does not require
grad". The asserts catch that error, then show that a callback that opens
``torch.enable_grad()`` around its own differentiation converges to a speed that
puts the ball at rim height, matching a brute-force scan.
"""
import torch

from ballistics import BallFlight
from shooting import newton_shoot

RIM_HEIGHT = 3.05
HOOP_DISTANCE = 5.8


def make_residual(flight, target_x, target_y):
    def residual_and_slope(speed):
        speed = speed.detach().requires_grad_(True)
        err = flight.height_at(speed, target_x) - target_y
        (slope,) = torch.autograd.grad(err, speed)
        return err.detach(), slope
    return residual_and_slope


def make_residual_fixed(flight, target_x, target_y):
    def residual_and_slope(speed):
        with torch.enable_grad():
            speed = speed.detach().requires_grad_(True)
            err = flight.height_at(speed, target_x) - target_y
            (slope,) = torch.autograd.grad(err, speed)
        return err.detach(), slope
    return residual_and_slope


def main():
    flight = BallFlight(launch_angle_deg=52.0)

    # --- buggy path ---
    try:
        newton_shoot(make_residual(flight, HOOP_DISTANCE, RIM_HEIGHT), v0=7.0)
    except RuntimeError as exc:
        err = exc
    else:
        err = None
    assert err is not None and "does not require grad" in str(err), err
    print("buggy: autograd.grad inside the solver's no_grad raised:", str(err).splitlines()[0])

    # --- fixed callback ---
    res = newton_shoot(make_residual_fixed(flight, HOOP_DISTANCE, RIM_HEIGHT), v0=7.0)
    assert res.converged, res
    h = flight.height_at(res.speed, HOOP_DISTANCE)
    assert abs(float(h) - RIM_HEIGHT) < 1e-3

    with torch.no_grad():
        speeds = torch.linspace(6.0, 12.0, 121)
        errs = torch.stack([(flight.height_at(s, HOOP_DISTANCE) - RIM_HEIGHT).abs() for s in speeds])
    best = speeds[errs.argmin()]
    assert abs(float(best - res.speed)) < 0.06, (best, res.speed)
    print("fixed: speed %.3f m/s in %d Newton steps (scan best %.2f)" % (res.speed, res.iterations, best))


if __name__ == "__main__":
    main()
