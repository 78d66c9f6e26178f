"""Forward-hook probes that record intermediate activations of a feature network."""
import torch.nn as nn


class RecordingProbe:
    def __init__(self, module: nn.Module, layer_names):
        self.features = {}
        self.handles = []
        for name, sub in module.named_children():
            if name in layer_names:
                self.handles.append(sub.register_forward_hook(self._make_hook(name)))

    def _make_hook(self, name):
        def hook(mod, inputs, output):
            self.features[name] = output.detach()
        return hook

    def pop(self):
        feats, self.features = self.features, {}
        return feats


class RecordingProbeRaw(RecordingProbe):
    def _make_hook(self, name):
        def hook(mod, inputs, output):
            self.features[name] = output
        return hook
