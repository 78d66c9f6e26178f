"""Velocity-Verlet integrator for small molecular-dynamics systems.

``force_fn(positions) -> forces`` is supplied by the caller.  The trajectory is
not differentiated, so stepping runs without recording a graph.
"""
import torch


class Trajectory:
    def __init__(self):
        self.positions = []
        self.energies = []


def _half_kick(velocities, forces, masses, dt):
    return velocities + 0.5 * dt * forces / masses[:, None]


def velocity_verlet(force_fn, energy_fn, positions, velocities, masses, dt, n_steps, record_every=10):
    traj = Trajectory()
    with torch.no_grad():
        x, v = positions.clone(), velocities.clone()
        f = force_fn(x)
        for step in range(n_steps):
            v = _half_kick(v, f, masses, dt)
            x = x + dt * v
            f = force_fn(x)
            v = _half_kick(v, f, masses, dt)
            if step % record_every == 0:
                kinetic = 0.5 * (masses[:, None] * v ** 2).sum()
                traj.positions.append(x.clone())
                traj.energies.append(float(kinetic + energy_fn(x)))
    return x, v, traj
