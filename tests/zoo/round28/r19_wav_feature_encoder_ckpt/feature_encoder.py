"""Convolutional waveform feature encoder with optional activation checkpointing."""
import torch
import torch.nn as nn
from torch.utils.checkpoint import checkpoint


class ConvLayer(nn.Module):
    def __init__(self, c_in, c_out, k, stride):
        super().__init__()
        self.conv = nn.Conv1d(c_in, c_out, k, stride=stride)
        self.norm = nn.GroupNorm(1, c_out)

    def forward(self, x):
        return torch.nn.functional.gelu(self.norm(self.conv(x)))


class FeatureEncoder(nn.Module):
    def __init__(self, set_input_grad=True):
        super().__init__()
        self.layers = nn.ModuleList([ConvLayer(1, 16, 10, 5), ConvLayer(16, 16, 3, 2),
                                     ConvLayer(16, 16, 3, 2)])
        self.gradient_checkpointing = False
        self._requires_grad = True
        self.set_input_grad = set_input_grad

    def freeze(self):
        for p in self.parameters():
            p.requires_grad = False
        self._requires_grad = False

    def forward(self, input_values):
        hidden_states = input_values[:, None]
        # reentrant checkpointing only tracks params if some input needs grad
        if self.set_input_grad and self._requires_grad and self.training:
            hidden_states.requires_grad = True
        for layer in self.layers:
            if self.gradient_checkpointing and self._requires_grad and self.training:
                hidden_states = checkpoint(layer, hidden_states, use_reentrant=True)
            else:
                hidden_states = layer(hidden_states)
        return hidden_states
