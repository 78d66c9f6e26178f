"""
expect: GL004 63
dynamic: confirm
source: https://github.com/TorchSim/torch-sim/pull/564

The PR reports a progressive slowdown in long molecular-dynamics runs when the model keeps its graph
(`retain_graph`), and fixes it by detaching the simulation state after every step. This program
rebuilds a small MD integrator driven by a learned pair potential: forces come from
`energy.backward(retain_graph=True)` on the positions, and the next positions are computed from the
current (graph-carrying) positions, so each step's backward walks back through every earlier update.
The number of earlier position tensors reached by the backward grows 1, 2, 3, ... and the reachable
graph grows every step; detaching the state after each step keeps both flat while producing the same
trajectory.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)


def graph_size(t):
    seen, stack = set(), [t.grad_fn]
    while stack:
        node = stack.pop()
        if node is None or node in seen:
            continue
        seen.add(node)
        stack.extend(n for n, _ in node.next_functions)
    return len(seen)


class PairPotential(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(1, 16), nn.Tanh(), nn.Linear(16, 1))

    def forward(self, positions):
        diff = positions[:, None, :] - positions[None, :, :]
        i, j = torch.triu_indices(positions.shape[0], positions.shape[0], 1)
        dist = diff[i, j].norm(dim=-1, keepdim=True)
        return self.net(dist).sum()


class SimState:
    def __init__(self, positions, velocities):
        self.positions = positions
        self.velocities = velocities


class VelocityVerlet:
    def __init__(self, model, dt=1e-3, detach_state=False):
        self.model = model
        self.dt = dt
        self.detach_state = detach_state
        self.reached = []

    def forces(self, state):
        pos = state.positions
        if not pos.requires_grad:
            pos.requires_grad_(True)
        pos.retain_grad()
        energy = self.model(pos)
        energy.backward(retain_graph=True)
        f = -pos.grad
        pos.grad = None
        return f, energy

    def step(self, state, history):
        f, energy = self.forces(state)
        reached = sum(1 for p in history if p.grad is not None)
        for p in history:
            p.grad = None
        state.positions = state.positions + self.dt * state.velocities + 0.5 * self.dt ** 2 * f
        state.velocities = state.velocities + self.dt * f
        if self.detach_state:
            state.positions = state.positions.detach()
        return reached, graph_size(energy)


def simulate(detach_state, steps=8):
    torch.manual_seed(1)
    model = PairPotential()
    for p in model.parameters():
        p.requires_grad_(False)
    state = SimState(torch.randn(5, 3), torch.zeros(5, 3))
    integrator = VelocityVerlet(model, detach_state=detach_state)
    history, reached, sizes = [], [], []
    for _ in range(steps):
        r, s = integrator.step(state, history)
        reached.append(r)
        sizes.append(s)
        history.append(state.positions)
        if state.positions.requires_grad:
            state.positions.retain_grad()
    return reached, sizes, state.positions.detach()


reached, sizes, final = simulate(detach_state=False)
assert reached == [0] + list(range(len(reached) - 1)), reached
assert all(b > a for a, b in zip(sizes[1:], sizes[2:])), sizes

reached_d, sizes_d, final_d = simulate(detach_state=True)
assert all(r == 0 for r in reached_d), reached_d
assert len(set(sizes_d)) == 1, sizes_d
assert torch.allclose(final, final_d), "same trajectory either way"
print("ok: carried MD state keeps every step's graph alive:", reached, sizes)
