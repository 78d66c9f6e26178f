"""
expect: GL003 45
dynamic: confirm
source: none, invented

Computational chemistry / geometry optimisation. `relax` is a small steepest-
descent relaxer for atomic clusters that is handed a dict of callbacks by its
caller: "forces" returns the forces on the atoms and "on_step" logs. To keep
the position updates out of any graph the relaxer wraps its whole loop in
`with torch.inference_mode():`, which also covers the call of the handed
"forces" callback. The caller hands in `functools.partial(lj_forces, ...)`,
which computes the Lennard-Jones energy and calls `.backward()` on it to get
-dE/dx; under inference mode the energy has no graph and backward raises. The
asserts catch that RuntimeError and show that `relax_stepwise`, which only
makes the update unrecorded, lowers the cluster's energy.
"""
import functools

import torch


def lj_energy(pos, sigma=1.0, epsilon=1.0):
    diff = pos.unsqueeze(0) - pos.unsqueeze(1)
    n = pos.shape[0]
    iu = torch.triu_indices(n, n, offset=1)
    r = diff.norm(dim=-1)[iu[0], iu[1]]
    sr6 = (sigma / r) ** 6
    return (4 * epsilon * (sr6 ** 2 - sr6)).sum()


def lj_forces(pos, sigma, epsilon):
    pos = pos.detach().clone().requires_grad_(True)
    energy = lj_energy(pos, sigma, epsilon)
    energy.backward()
    return -pos.grad


def _clip(step, max_disp):
    norm = step.norm(dim=-1, keepdim=True).clamp_min(1e-12)
    return step * torch.clamp(max_disp / norm, max=1.0)


def relax(positions, callbacks, n_steps=50, lr=0.01, max_disp=0.05):
    pos = positions.clone()
    with torch.inference_mode():
        for step in range(n_steps):
            forces = callbacks["forces"](pos)
            pos = pos + _clip(lr * forces, max_disp)
            callbacks.get("on_step", lambda *a: None)(step, pos)
    return pos


def relax_stepwise(positions, callbacks, n_steps=50, lr=0.01, max_disp=0.05):
    pos = positions.clone()
    for step in range(n_steps):
        forces = callbacks["forces"](pos)
        with torch.no_grad():
            pos = pos + _clip(lr * forces, max_disp)
        callbacks.get("on_step", lambda *a: None)(step, pos)
    return pos


def random_cluster(n_atoms=8, seed=0):
    g = torch.Generator().manual_seed(seed)
    grid = torch.stack(torch.meshgrid(torch.arange(2.0), torch.arange(2.0), torch.arange(2.0),
                                      indexing="ij"), -1).reshape(-1, 3)[:n_atoms]
    return grid * 1.3 + 0.1 * torch.randn(n_atoms, 3, generator=g)


def main():
    cluster = random_cluster()
    trajectory = []
    callbacks = {
        "forces": functools.partial(lj_forces, sigma=1.0, epsilon=1.0),
        "on_step": lambda step, pos: trajectory.append(float(lj_energy(pos))),
    }

    try:
        relax(cluster, callbacks)
        raised = None
    except RuntimeError as err:
        raised = err
    assert raised is not None and "does not require grad" in str(raised), raised

    trajectory.clear()
    relaxed = relax_stepwise(cluster, callbacks)
    e0, e1 = float(lj_energy(cluster)), float(lj_energy(relaxed))
    assert e1 < e0, (e0, e1)
    assert len(trajectory) == 50
    print(f"k04 ok: backward under inference_mode raises; stepwise relax {e0:.3f} -> {e1:.3f}")


if __name__ == "__main__":
    main()
