"""Generator-side losses for the face-swap trainer: identity (frozen recognizer), attribute and reconstruction."""
import torch
import torch.nn.functional as F


def align_crop(img, out_size=12):
    """Crop the face region and resize it to the recognizer's input size."""
    h, w = img.shape[-2:]
    m = h // 8
    face = img[:, :, m:h - m, m:w - m]
    return F.interpolate(face, size=(out_size, out_size), mode="bilinear", align_corners=True)


class IdentityLoss:
    """1 - cos(source identity, identity of the swapped face), using a frozen recognizer."""

    def __init__(self, recognizer):
        self.recognizer = recognizer

    def source_embedding(self, x_source):
        # the source identity is a fixed target: no gradient is wanted here
        with torch.no_grad():
            return self.recognizer(align_crop(x_source))

    def __call__(self, src_embed, y_swapped):
        y_aligned = align_crop(y_swapped).detach()
        z_swapped = self.recognizer(y_aligned)
        return (1.0 - F.cosine_similarity(src_embed, z_swapped, dim=1)).mean()


def attribute_loss(target_attrs, swapped_attrs):
    total = 0.0
    for a, b in zip(target_attrs, swapped_attrs):
        total = total + ((a - b) ** 2).flatten(1).mean(1).mean()
    return total / 2.0


def reconstruction_loss(y_swapped, x_target, same_person):
    per_sample = 0.5 * ((y_swapped - x_target) ** 2).flatten(1).mean(1)
    return (per_sample * same_person).sum() / (same_person.sum() + 1e-6)
