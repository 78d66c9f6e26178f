"""Spherical <-> Cartesian helpers for vessel centerlines stored as an origin plus per-segment (r, theta, phi) steps."""
import torch


def convert_back_tensors(origin_tensor, spherical_coordinates):
    """origin_tensor: (3, 1); spherical_coordinates: (3, N) rows r, theta, phi -> (3, N + 1) points."""
    cartesian_coordinates = origin_tensor.clone().detach()
    for i in range(spherical_coordinates.shape[1]):
        r = spherical_coordinates[0, i]
        theta = spherical_coordinates[1, i]
        phi = spherical_coordinates[2, i]
        step = torch.tensor([[r * torch.sin(theta) * torch.cos(phi)],
                             [r * torch.sin(theta) * torch.sin(phi)],
                             [r * torch.cos(theta)]])
        current = torch.add(cartesian_coordinates[:, i].unsqueeze(dim=1), step)
        cartesian_coordinates = torch.cat((cartesian_coordinates, current), dim=1)
    return cartesian_coordinates


def convert_back_vectorized(origin_tensor, spherical_coordinates):
    r, theta, phi = spherical_coordinates
    steps = torch.stack((r * torch.sin(theta) * torch.cos(phi),
                         r * torch.sin(theta) * torch.sin(phi),
                         r * torch.cos(theta)))
    return torch.cat((origin_tensor, origin_tensor + torch.cumsum(steps, dim=1)), dim=1)
