"""Minimal per-sample-gradient engine in the style of a DP-SGD library: every trainable
Conv2d / Linear gets a forward hook (store activations) and a *full* backward hook
(receive grad_output), from which per-example gradients are formed, clipped and noised."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class GradSampleModule(nn.Module):
    def __init__(self, module):
        super().__init__()
        self._module = module
        self._handles = []
        for layer in module.modules():
            if isinstance(layer, (nn.Conv2d, nn.Linear)):
                self._handles.append(layer.register_forward_hook(self._capture_activations))
                self._handles.append(layer.register_full_backward_hook(self._capture_backprops))

    def forward(self, x):
        return self._module(x)

    @staticmethod
    def _capture_activations(layer, inputs, output):
        layer._activations = inputs[0].detach()

    @staticmethod
    def _capture_backprops(layer, grad_input, grad_output):
        a = layer._activations
        g = grad_output[0].detach()
        if isinstance(layer, nn.Linear):
            layer.weight.grad_sample = torch.einsum("ni,nj->nij", g, a)
            layer.bias.grad_sample = g.clone()
        else:
            cols = F.unfold(a, layer.kernel_size, padding=layer.padding, stride=layer.stride)
            g = g.flatten(2)
            gw = torch.einsum("nol,nkl->nok", g, cols)
            layer.weight.grad_sample = gw.view(a.size(0), *layer.weight.shape)
            layer.bias.grad_sample = g.sum(2)


class DPOptimizer:
    def __init__(self, params, lr, max_grad_norm, noise_multiplier, generator):
        self.params = [p for p in params if p.requires_grad]
        self.lr, self.c, self.sigma, self.gen = lr, max_grad_norm, noise_multiplier, generator

    def zero_grad(self):
        for p in self.params:
            p.grad = None
            if hasattr(p, "grad_sample"):
                del p.grad_sample

    @torch.no_grad()
    def step(self):
        samples = [p.grad_sample for p in self.params if hasattr(p, "grad_sample")]
        n = samples[0].size(0)
        norms = torch.stack([s.reshape(n, -1).norm(dim=1) for s in samples], 1).norm(dim=1)
        factor = (self.c / (norms + 1e-6)).clamp(max=1.0)
        for p in self.params:
            if not hasattr(p, "grad_sample"):
                continue
            summed = torch.einsum("n,n...->...", factor, p.grad_sample)
            noise = torch.randn(summed.shape, generator=self.gen) * self.sigma * self.c
            p.add_(-(self.lr) * (summed + noise) / n)


def make_private(model, lr=2.0, max_grad_norm=1.0, noise_multiplier=0.05, seed=0):
    gen = torch.Generator().manual_seed(seed)
    wrapped = GradSampleModule(model)
    return wrapped, DPOptimizer(model.parameters(), lr, max_grad_norm, noise_multiplier, gen)
