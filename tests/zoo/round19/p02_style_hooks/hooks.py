"""Forward hooks that keep the activations of chosen layers (fastai-style helper)."""
import torch.nn as nn


class Hook:
    def __init__(self, module: nn.Module, detach: bool = True):
        self.detach = detach
        self.stored = None
        self.handle = module.register_forward_hook(self.hook_fn)

    def hook_fn(self, module, inputs, output):
        self.stored = output.detach() if self.detach else output

    def remove(self):
        self.handle.remove()


class HookOutputs:
    """Hooks several modules at once; `.stored` gives the list of their last outputs."""

    def __init__(self, modules, detach: bool = True):
        self.hooks = [Hook(m, detach=detach) for m in modules]

    @property
    def stored(self):
        return [h.stored for h in self.hooks]

    def remove(self):
        for h in self.hooks:
            h.remove()
