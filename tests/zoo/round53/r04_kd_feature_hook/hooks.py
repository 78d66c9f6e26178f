"""Forward-hook helper that captures intermediate stage outputs of a backbone."""
import torch.nn as nn


class FeatHook:
    """hook.features[idx] holds the output of backbone[idx] from the last forward pass."""

    def __init__(self, backbone: nn.Sequential, layer_ids):
        self.features, self.handles = {}, []
        for i in layer_ids:
            self.handles.append(backbone[i].register_forward_hook(self._capture(i)))

    def _capture(self, idx):
        def hook(module, inputs, output):
            self.features[idx] = output.detach()
        return hook

    def clear(self):
        self.features.clear()

    def close(self):
        for h in self.handles:
            h.remove()
