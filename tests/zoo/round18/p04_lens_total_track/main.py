"""
expect: GL002 torch_backend.py:15, GL002 torch_backend.py:19
dynamic: confirm
source: https://github.com/optiland/optiland/issues/853

The report: on optiland's torch backend `total_track` comes back as a Python float because
the backend's `be.max` / `be.min` are implemented as `x.detach().max().item()`. Torch
optimizers (TorchAdamOptimizer, OpticalSystemModule) therefore get nothing from a track
constraint; with other operands in the problem the constraint is silently ignored (only with
track as the sole operand does backward raise). This program rebuilds a small lens-design
problem: surface thicknesses and curvatures are torch parameters, the merit function is a
focal-length operand plus a max-track penalty computed through the backend in
torch_backend.py. The asserts show the thickness gradient is identical with or without the
track operand, the track stays far above its limit after optimisation, and a tensor max/min
brings it down to the limit.
"""
import torch
import torch_backend as be

torch.set_default_dtype(torch.float64)


class CookeLikeTriplet(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.thickness = torch.nn.Parameter(be.array([6.0, 10.0, 4.0, 12.0, 5.0, 30.0]))
        self.curvature = torch.nn.Parameter(be.array([0.045, -0.01, -0.04, 0.04, 0.012, -0.05]))
        self.n = be.array([1.62, 1.0, 1.61, 1.0, 1.62, 1.0])

    def surface_z(self):
        return torch.cat([be.array([0.0]), be.cumsum(self.thickness)])

    def efl(self):
        # paraxial ray trace (y, u) through the refracting surfaces
        y, u, n_prev = be.array(1.0), be.array(0.0), be.array(1.0)
        for c, t, n in zip(self.curvature, self.thickness, self.n):
            u = (n_prev * u - y * c * (n - n_prev)) / n
            y = y + t * u
            n_prev = n
        return -1.0 / u


def total_track(lens, backend_max, backend_min):
    z = lens.surface_z()
    return backend_max(z) - backend_min(z)


def merit(lens, use_track, tmax=50.0, efl_target=50.0, bmax=be.max, bmin=be.min):
    loss = (lens.efl() - efl_target) ** 2
    if use_track:
        excess = total_track(lens, bmax, bmin) - tmax
        loss = loss + 10.0 * (excess if excess > 0 else 0.0) ** 2
    return loss


def optimise(lens, steps, **kw):
    opt = torch.optim.Adam(lens.parameters(), lr=0.05)
    for _ in range(steps):
        opt.zero_grad()
        merit(lens, True, **kw).backward()
        opt.step()
    return lens


if __name__ == "__main__":
    lens = CookeLikeTriplet()
    g_with = torch.autograd.grad(merit(lens, True), lens.thickness)[0]
    g_without = torch.autograd.grad(merit(lens, False), lens.thickness)[0]
    assert torch.allclose(g_with, g_without)          # the track operand adds nothing

    optimise(lens, 300)
    track_bug = total_track(lens, be.max, be.min)
    assert track_bug > 60.0, track_bug                # still far above tmax = 50

    fixed = CookeLikeTriplet()
    tmax_t = lambda z: torch.amax(z)
    tmin_t = lambda z: torch.amin(z)
    optimise(fixed, 300, bmax=tmax_t, bmin=tmin_t)
    track_fixed = total_track(fixed, tmax_t, tmin_t).item()
    assert track_fixed < 52.0, track_fixed
    print(f"OK: track {track_bug:.1f} (float backend) vs {track_fixed:.1f} (tensor backend)")
