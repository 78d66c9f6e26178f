"""Saliency adapters patched into the eager attention path of every layer (label-words analysis style)."""
import types

import torch


class AttentionAdapter:
    def __init__(self):
        self.params = None

    def __call__(self, attn_weights):
        if self.params is None:
            self.params = torch.ones_like(attn_weights, requires_grad=True)
        return attn_weights * self.params


def _patched_attn(adapter):
    def _attn(self, q, k, v):
        n = q.shape[-2]
        scores = q @ k.transpose(-2, -1) / q.shape[-1] ** 0.5
        causal = torch.ones(n, n, dtype=torch.bool).tril()
        weights = torch.softmax(scores.masked_fill(~causal, float("-inf")), dim=-1)
        return adapter(weights) @ v
    return _attn


class AttentionerManager:
    def __init__(self, model):
        self.attention_adapters = []
        for block in model.layers:
            adapter = AttentionAdapter()
            block.attn._attn = types.MethodType(_patched_attn(adapter), block.attn)
            self.attention_adapters.append(adapter)

    def grad(self, use_abs=True):
        grads = []
        for adapter in self.attention_adapters:
            g = adapter.params.grad
            grads.append(g.abs() if use_abs else g)
        return grads
