class ActivationRecorder:
    """Keeps the latest output of selected sub-layers of a network."""

    def __init__(self, net, layer_names):
        self.store = {}
        self.handles = []
        modules = dict(net.named_modules())
        for name in layer_names:
            layer = modules[name]
            self.handles.append(layer.register_forward_hook(self._make_hook(name)))

    def _make_hook(self, name):
        def hook(module, inputs, out):
            self.store[name] = out.clone().detach()
        return hook

    def remove(self):
        for h in self.handles:
            h.remove()
