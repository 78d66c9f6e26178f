"""Explicit Euler stepper with an optional learned (hypersolver) correction term."""
import torch


class Euler:
    order = 1

    def step(self, func, u, t, h):
        return func(*u, t)

    def solve(self, func, u0, t0, tn, n_steps, hypernet=None):
        ts = torch.linspace(t0, tn, n_steps + 1)
        us = [u0]
        h = (tn - t0) / n_steps
        for t in ts[:-1]:
            u_old = us[-1]
            u_new = u_old + h * torch.tensor(self.step(func, u_old, t, h))
            if hypernet is not None:
                inp = torch.cat([t.reshape(1, 1), u_old.reshape(1, -1)], dim=1)
                u_new = u_new + h ** 2 * hypernet(inp).flatten()
            us.append(u_new)
        return ts, torch.stack(us, dim=0)
