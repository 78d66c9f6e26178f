"""
expect: GL002 52
dynamic: confirm
source: https://github.com/keenon/nimblephysics/issues/196

nimblephysics issue: to learn an unknown ball mass from a bouncing-balls rollout,
the user appended each step's contact-force z component to per-ball lists, took
the dot products and "stored this result in a new tensor" before averaging, and
the loss had no grad_fn. Here a small differentiable penalty-contact simulator
with a learnable log-mass is fitted to a reference rollout; the contact-force
term is packed with torch.tensor(list_of_tensors) inside the loss helper. The
asserts show the mass gradient is the same whether that term has weight 0 or 5,
while torch.stack makes the term count.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)

DT, K_CONTACT, G = 0.01, 400.0, 9.81


class TwoBallSim(nn.Module):
    def __init__(self, mass_b_guess):
        super().__init__()
        self.mass_a = 1.0
        self.log_mass_b = nn.Parameter(torch.tensor(float(mass_b_guess)).log())

    def rollout(self, steps=120):
        z = torch.tensor([1.0, 0.8])
        v = torch.zeros(2)
        masses = torch.stack([torch.tensor(self.mass_a), self.log_mass_b.exp()])
        heights, forces = [], []
        for _ in range(steps):
            f_contact = K_CONTACT * torch.relu(-z) - 2.0 * torch.relu(-z).sign() * v
            acc = f_contact / masses - G
            v = v + DT * acc
            z = z + DT * v
            heights.append(z)
            forces.append(f_contact)
        return torch.stack(heights), forces


class BounceLoss:
    def __init__(self, force_weight):
        self.force_weight = force_weight

    def contact_force_term(self, forces):
        fz_a = torch.stack([f[0] for f in forces])
        fz_b = torch.stack([f[1] for f in forces])
        dots = torch.tensor([fz_a @ fz_a, fz_b @ fz_b])
        return dots.sum() / len(forces)

    def __call__(self, heights, forces, ref_heights, ref_force_term):
        traj = ((heights - ref_heights) ** 2).mean()
        return traj + self.force_weight * (self.contact_force_term(forces) - ref_force_term) ** 2 / 1e6


class BounceLossStacked(BounceLoss):
    def contact_force_term(self, forces):
        fz = torch.stack([f for f in forces])          # (T, 2)
        return (fz * fz).sum() / len(forces)


with torch.no_grad():
    ref_h, ref_f = TwoBallSim(2.0).rollout()
    ref_term = BounceLossStacked(1.0).contact_force_term(ref_f)


def mass_grad(loss_fn):
    sim = TwoBallSim(1.2)
    h, f = sim.rollout()
    loss_fn(h, f, ref_h, ref_term).backward()
    return sim.log_mass_b.grad.item()


g0 = mass_grad(BounceLoss(0.0))
g5 = mass_grad(BounceLoss(5.0))
g5_fixed = mass_grad(BounceLossStacked(5.0))
assert g0 == g5, (g0, g5)
assert abs(g5_fixed - g0) > 1e-6 * max(1.0, abs(g0)), (g0, g5_fixed)
print("ok: contact-force term adds nothing to the mass gradient", g0, g5_fixed)
