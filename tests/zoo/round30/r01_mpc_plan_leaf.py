"""
expect: none
dynamic: dismiss
source: https://github.com/google/deluca

A ventilator MPC controller in deluca warm-starts its open-loop plan from a PID
controller: each PID action is read out with .item() and rebuilt as a fresh leaf
tensor with requires_grad=True, and Adam then optimizes those leaves through a
differentiable lung simulator. The rebuild looks like a python round-trip, but it is
on purpose: the plan values are the decision variables, the PID is only an initial
guess. The asserts show every plan entry gets a gradient and the tracking loss drops.
"""
import torch

torch.manual_seed(0)
torch.set_num_threads(1)


class LungSim:
    def __init__(self):
        self.a, self.b = 0.8, 0.3

    def rollout(self, plan, p0):
        p, out = p0, []
        for u in plan:
            p = self.a * p + self.b * torch.tanh(u)
            out.append(p)
        return torch.stack(out)


class PIDInit:
    def __init__(self, kp=0.5):
        self.kp = kp

    def __call__(self, err):
        return torch.tensor(self.kp * err)


class MPC:
    def __init__(self, sim, horizon=6):
        self.sim, self.horizon = sim, horizon
        self.pid = PIDInit()

    def initial_plan(self, target, p0):
        plan = []
        for t in range(self.horizon):
            u = self.pid(float(target[t] - p0))
            plan.append(torch.tensor(u.item(), requires_grad=True))  # leaf decision variable
        return plan

    def optimize(self, target, p0, epochs=40):
        plan = self.initial_plan(target, p0)
        opt = torch.optim.Adam(plan, lr=0.1)
        first = None
        for _ in range(epochs):
            opt.zero_grad()
            loss = ((self.sim.rollout(plan, p0) - target) ** 2).mean()
            loss.backward()
            if first is None:
                first = loss.item()
                grads = [p.grad.abs().item() for p in plan]
            opt.step()
        return plan, first, loss.item(), grads


target = torch.full((6,), 0.9)
mpc = MPC(LungSim())
plan, first, last, grads = mpc.optimize(target, torch.tensor(0.1))
assert all(g > 0 for g in grads), grads
assert last < first * 0.5, (first, last)
print("ok", first, last)
