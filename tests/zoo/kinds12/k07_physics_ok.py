"""
expect: none
dynamic: dismiss
source: kind 7

A pretrained-style scoring network rates candidate grid positions for beads on a chain, and
topk indices over the grid scores decode coarse starting positions for the beads. The decoded positions
are then switched on with requires_grad = True and handed to an optimizer as free variables,
which minimises the chain's spring-plus-gravity energy. The positions are what is optimised:
they receive .grad, move away from the grid, and the energy goes down.
"""
import torch
import torch.nn as nn


def coarse_positions(scorer, grid, beads):
    scores = scorer(grid).squeeze(-1)           # one score per grid point
    picks = torch.topk(scores, beads).indices.sort().values
    return grid[picks].clone()


def chain_energy(pos, anchor_left, anchor_right, rest=0.5, k=10.0, mass=0.2):
    full = torch.cat([anchor_left[None], pos, anchor_right[None]])
    stretch = (full[1:] - full[:-1]).norm(dim=-1) - rest
    return 0.5 * k * stretch.pow(2).sum() + mass * 9.8 * pos[:, 1].sum()


def main():
    torch.manual_seed(0)
    scorer = nn.Sequential(nn.Linear(2, 16), nn.Tanh(), nn.Linear(16, 1))
    xs = torch.linspace(0, 4, 9)
    grid = torch.cartesian_prod(xs, torch.linspace(-1, 1, 5))

    pos = coarse_positions(scorer, grid, beads=6)
    pos.requires_grad = True
    opt = torch.optim.Adam([pos], lr=0.05)
    left, right = torch.tensor([0.0, 0.0]), torch.tensor([4.0, 0.0])
    start = pos.detach().clone()
    first = chain_energy(pos, left, right).item()
    for _ in range(50):
        energy = chain_energy(pos, left, right)
        opt.zero_grad()
        energy.backward()
        opt.step()
    assert pos.grad is not None
    assert not torch.equal(pos.detach(), start)
    assert chain_energy(pos, left, right).item() < first
    print("ok: decoded positions refined, energy %.3f -> %.3f" % (first, energy.item()))


if __name__ == "__main__":
    main()
