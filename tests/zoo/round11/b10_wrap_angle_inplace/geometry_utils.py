"""Small geometry helpers shared by the guidance losses."""
import math

import torch


def heading_vector(yaw):
    return torch.stack([torch.cos(yaw), torch.sin(yaw)], dim=-1)


def wrap_angle(yaw):
    """Map angles to [-pi, pi)."""
    yaw.copy_(torch.remainder(yaw + math.pi, 2 * math.pi) - math.pi)
    return yaw


def transform_points(points, yaw, offset):
    c, s = torch.cos(yaw), torch.sin(yaw)
    x = points[..., 0] * c - points[..., 1] * s
    y = points[..., 0] * s + points[..., 1] * c
    return torch.stack([x, y], dim=-1) + offset
