"""
expect: none
dynamic: dismiss
source: none, invented

Computational chemistry. A small argon-like Lennard-Jones cluster is propagated with
a velocity-Verlet integrator (integrator.py) that calls the user's force callback
inside its own ``with torch.no_grad():`` block. The callback, the bound method
``LennardJones.forces`` (potentials.py), gets forces as -dE/dx with
``torch.autograd.grad`` but opens ``torch.enable_grad()`` around its own
differentiation, so it works under the integrator's no_grad: this is correct code.
The asserts check the autograd forces against central finite differences and
against Newton's third law, that total energy is conserved to a small drift over
the run, that atoms move and momentum is conserved, and that grad mode is still on
after the integrator returns.
"""
import torch

from integrator import velocity_verlet
from potentials import LennardJones


def fcc_cluster(n_side=2, spacing=1.12, jitter=0.03, seed=0):
    g = torch.Generator().manual_seed(seed)
    grid = torch.stack(torch.meshgrid(*[torch.arange(n_side, dtype=torch.float64)] * 3, indexing="ij"), -1)
    pts = grid.reshape(-1, 3) * spacing
    return pts + jitter * torch.randn(pts.shape, generator=g, dtype=torch.float64)


def finite_difference_forces(lj, x, h=1e-5):
    f = torch.zeros_like(x)
    for i in range(x.shape[0]):
        for d in range(3):
            xp, xm = x.clone(), x.clone()
            xp[i, d] += h
            xm[i, d] -= h
            f[i, d] = -(lj.energy(xp) - lj.energy(xm)) / (2 * h)
    return f


def main():
    torch.set_num_threads(1)
    lj = LennardJones()
    x0 = fcc_cluster()
    n = len(x0)
    masses = torch.ones(n, dtype=torch.float64)
    g = torch.Generator().manual_seed(1)
    v0 = 0.1 * torch.randn(n, 3, generator=g, dtype=torch.float64)
    v0 -= v0.mean(0)  # zero total momentum

    f_auto = lj.forces(x0)
    assert torch.allclose(f_auto, finite_difference_forces(lj, x0), atol=1e-6)
    assert torch.allclose(f_auto.sum(0), torch.zeros(3, dtype=torch.float64), atol=1e-9)

    # the integrator's no_grad does not stop the callback from differentiating
    with torch.no_grad():
        assert torch.allclose(lj.forces(x0), f_auto)

    x, v, traj = velocity_verlet(lj.forces, lj.energy, x0, v0, masses, dt=2e-3, n_steps=1500)
    assert torch.is_grad_enabled()
    e = torch.tensor(traj.energies)
    drift = float((e - e[0]).abs().max())
    moved = float((x - x0).norm(dim=1).max())
    print("energy E0=%.4f, max |dE|=%.2e over %d samples; max displacement %.3f" % (e[0], drift, len(e), moved))
    assert drift < 1e-3 * abs(float(e[0])), drift
    assert moved > 0.05, "atoms actually moved under the computed forces"
    assert torch.allclose(v.sum(0), torch.zeros(3, dtype=torch.float64), atol=1e-9), "momentum conserved"


if __name__ == "__main__":
    main()
