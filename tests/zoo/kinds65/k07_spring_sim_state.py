"""
expect: GL004 77
dynamic: confirm
source: none, invented

A system-identification script fitting the stiffness and damping of a damped spring to an observed
trajectory. The simulator module keeps its position/velocity on itself: `advance()` rebuilds
`self.state` from the previous `self.state`, and `observe()` reads it through a learned sensor layer.
The fitting loop calls both for every time step and backpropagates each step's loss with
retain_graph=True (added to silence "backward through the graph a second time"), but the state is never
reset or detached, so each step's graph contains every previous step and every backward walks the whole
history again. The asserts count the autograd nodes behind each step's loss and show the count grows
with every step, while the fixed loop (state detached each step) keeps it constant and still fits the
parameters.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class SpringSimulator(nn.Module):
    def __init__(self, dt=0.05):
        super().__init__()
        self.log_k = nn.Parameter(torch.tensor(0.0))
        self.log_c = nn.Parameter(torch.tensor(-1.0))
        self.sensor = nn.Linear(2, 1)
        self.dt = dt
        self.state = torch.tensor([[1.0, 0.0]])

    def advance(self, force):
        pos, vel = self.state[:, :1], self.state[:, 1:]
        acc = force - self.log_k.exp() * pos - self.log_c.exp() * vel
        vel = vel + self.dt * acc
        pos = pos + self.dt * vel
        self.state = torch.cat([pos, vel], dim=1)

    def observe(self):
        return self.sensor(self.state)


def graph_size(t):
    seen, stack = set(), [t.grad_fn]
    while stack:
        node = stack.pop()
        if node is None or node in seen:
            continue
        seen.add(node)
        stack.extend(nxt for nxt, _ in node.next_functions)
    return len(seen)


def reference_trajectory(steps, forces):
    true_sim = SpringSimulator()
    with torch.no_grad():
        true_sim.log_k.fill_(1.0)
        true_sim.log_c.fill_(-0.5)
        true_sim.sensor.weight.copy_(torch.tensor([[1.0, 0.2]]))
        true_sim.sensor.bias.zero_()
        obs = []
        for t in range(steps):
            true_sim.advance(forces[t])
            obs.append(true_sim.observe())
    return obs


def fit(sim, forces, observed, detach_state):
    opt = torch.optim.Adam(sim.parameters(), lr=3e-2)
    opt.zero_grad()
    sizes = []
    for t in range(len(observed)):
        if detach_state:
            sim.state = sim.state.detach()
        sim.advance(forces[t])
        pred = sim.observe()
        loss = F.mse_loss(pred, observed[t])
        sizes.append(graph_size(loss))
        loss.backward(retain_graph=True)
    opt.step()
    return sizes


def main():
    torch.manual_seed(0)
    torch.set_num_threads(1)
    steps = 40
    forces = 0.3 * torch.randn(steps, 1, 1)
    observed = reference_trajectory(steps, forces)

    sim = SpringSimulator()
    sizes = fit(sim, forces, observed, detach_state=False)
    assert all(b > a for a, b in zip(sizes, sizes[1:]))
    assert sizes[-1] > 10 * sizes[0]

    fixed = SpringSimulator()
    k_before = fixed.log_k.item()
    for epoch in range(5):
        fixed.state = torch.tensor([[1.0, 0.0]])
        sizes = fit(fixed, forces, observed, detach_state=True)
        assert len(set(sizes[1:])) == 1
    assert fixed.log_k.item() != k_before
    print("graph nodes per step (fixed): %d" % sizes[-1])


if __name__ == "__main__":
    main()
