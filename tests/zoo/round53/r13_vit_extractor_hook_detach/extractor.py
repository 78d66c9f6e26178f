"""Wrapper that returns a vision transformer's token embeddings captured by a forward hook."""
import torch
from torch import nn


def apply_tuple_or_single(fn, val):
    if isinstance(val, tuple):
        return tuple(map(fn, val))
    return fn(val)


class Extractor(nn.Module):
    def __init__(self, vit, layer_name="transformer", return_embeddings_only=False):
        super().__init__()
        self.vit = vit
        self.latents = None
        self.hooks = []
        self.hook_registered = False
        self.layer_name = layer_name
        self.return_embeddings_only = return_embeddings_only

    def _hook(self, _, inputs, output):
        self.latents = apply_tuple_or_single(lambda t: t.clone().detach(), output)

    def _register_hook(self):
        layer = getattr(self.vit, self.layer_name)
        self.hooks.append(layer.register_forward_hook(self._hook))
        self.hook_registered = True

    def forward(self, img, return_embeddings_only=False):
        self.latents = None
        if not self.hook_registered:
            self._register_hook()
        pred = self.vit(img)
        if return_embeddings_only or self.return_embeddings_only:
            return self.latents
        return pred, self.latents
