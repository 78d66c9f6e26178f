"""Minimal directional-light shading in the style of a mesh renderer's light classes.

Light properties may be given as nested tuples/lists (one RGB triple per batch
element) or as tensors; everything is normalised into (N, 3) float tensors.
"""
import torch


def format_property(value, device="cpu"):
    if not torch.is_tensor(value):
        value = torch.tensor(value, dtype=torch.float32, device=device)
    if value.dim() == 1:
        value = value[None]
    return value.to(device)


class DirectionalLight:
    def __init__(self, ambient_color=((0.5, 0.5, 0.5),), diffuse_color=((0.3, 0.3, 0.3),),
                 direction=((0.0, 0.0, 1.0),), device="cpu"):
        self.ambient_color = format_property(ambient_color, device)
        self.diffuse_color = format_property(diffuse_color, device)
        direction = format_property(direction, device)
        self.direction = direction / direction.norm(dim=-1, keepdim=True)

    def shade(self, normals, albedo):
        # normals, albedo: (P, 3); Lambertian term plus ambient term
        cos = (normals * self.direction).sum(-1, keepdim=True).clamp(min=0.0)
        return albedo * (self.ambient_color + self.diffuse_color * cos)
