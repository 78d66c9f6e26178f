"""Driver of a two-file reproduction; the bug line is in grads.py, line 34
(GL002: the torch.tensor([...]) call inside corner_points(); the expect line
is in grads.py's docstring). This file optimises a readout-gradient
amplitude and an RF flip angle against a target signal with a toy signal model
and checks which of the two actually receives a gradient.
"""
import torch

from grads import gradient_moment, make_trapezoid


def toy_signal(flip_angle, moment):
    # transverse magnetisation after excitation, dephased by the gradient moment
    return torch.sin(flip_angle) * torch.cos(moment * 1e3)


def main():
    torch.manual_seed(0)
    amplitude = torch.tensor(2.0, requires_grad=True)
    flip_angle = torch.tensor(0.5, requires_grad=True)
    optimizer = torch.optim.Adam([amplitude, flip_angle], lr=1e-2)
    target = torch.tensor(0.3)
    for _ in range(3):
        optimizer.zero_grad()
        gx = make_trapezoid("x", amplitude)
        loss = (toy_signal(flip_angle, gradient_moment(gx)) - target) ** 2
        loss.backward()
        optimizer.step()
    assert flip_angle.grad is not None and flip_angle.grad.abs() > 0
    assert amplitude.grad is None, "gradient amplitude should be cut off"
    print("OK: flip angle trains, gradient amplitude gets no gradient (torch.tensor copy)")


if __name__ == "__main__":
    main()
