"""
expect: GL004 temporal_pinn.py:51
dynamic: confirm
source: https://github.com/QinghuiXiao/Flexo/blob/085ae543d85c019af9e040a838a7c5b870045514/Flexo_test_1.py

A time-marching physics-informed net for a phase-field (flexoelectric
polarisation) problem: one small network per time interval, trained on an
implicit-Euler residual (u - u_previous)/dt - f(u).  After each interval the
driver sets `u_previous = u_end`, where u_end is the network's output with its
full autograd record, and hands it to the next interval's trainer.  The next
interval's loss therefore reaches back into the previous network's graph, so a
plain backward fails on the second optimizer step ("Trying to backward through
the graph a second time").  The code calls `loss.backward(retain_graph=True)`
inside the training loop instead, which keeps the old graph alive and silently
backpropagates through the previous network on every step, piling gradients
into parameters nobody trains.  The asserts show the error with a plain
backward, that with retain_graph=True every one of the 30 steps of interval 2
reaches interval 1's network and changes its .grad, and that detaching u_end
(after which the retained graph is harmless) gives the same new-network training
with the old network never reached.
"""
import torch

from temporal_pinn import TemporalPINN

torch.manual_seed(0)
torch.set_num_threads(1)

x_int = torch.linspace(0, 1, 48).reshape(-1, 1)
u0 = 0.5 * torch.sin(torch.pi * x_int)  # initial condition read from a file in the original


def march(n_intervals, detach_end, epochs=30):
    u_previous = u0
    networks, visits, old_changed = [], [], False
    for i in range(n_intervals):
        pinn = TemporalPINN(u_previous, x_int)
        opt = torch.optim.Adam(pinn.approximate_solution.parameters(), lr=1e-2)
        if networks:
            # count how often backward reaches the previous interval's network
            count = [0]
            first_w = networks[-1].approximate_solution.net[0].weight
            first_w.register_hook(lambda g, c=count: c.__setitem__(0, c[0] + 1))
            visits = count
            before = [p.grad.clone() for p in networks[-1].approximate_solution.parameters()]
        history, u_end = pinn.fit(epochs, opt)
        if networks:
            after = [p.grad for p in networks[-1].approximate_solution.parameters()]
            old_changed = any(not torch.equal(a, b) for a, b in zip(after, before))
        u_previous = u_end.detach() if detach_end else u_end
        networks.append(pinn)
    return networks, history, (visits[0] if visits else 0), old_changed


# 1) a plain backward shows the hidden dependency on the previous interval
first = TemporalPINN(u0, x_int)
_, u_end = first.fit(5, torch.optim.Adam(first.approximate_solution.parameters(), lr=1e-2))
second = TemporalPINN(u_end, x_int)
opt = torch.optim.Adam(second.approximate_solution.parameters(), lr=1e-2)
try:
    for _ in range(2):
        opt.zero_grad()
        second.compute_loss().backward()
        opt.step()
    raised = False
except RuntimeError as err:
    raised = "backward through the graph a second time" in str(err)
assert raised

# 2) the original: retain_graph=True makes it run, but every step of interval 2
#    also backpropagates into interval 1's network, which piles up gradient
nets, hist_bug, visits_bug, old_changed = march(2, detach_end=False)
assert visits_bug == 30, visits_bug
assert old_changed, "interval 1's .grad kept accumulating during interval 2"

# 3) repaired: u_end detached; the old network is never reached
nets_fix, hist_fix, visits_fix, old_changed_fix = march(2, detach_end=True)
assert visits_fix == 0 and not old_changed_fix
assert abs(hist_fix[-1] - hist_bug[-1]) < 1e-4  # same new-network training, minus the waste
assert hist_fix[-1] < hist_fix[0]
print(f"backward visits into the previous network: {visits_bug} with the carried u_end, "
      f"{visits_fix} after detach")
