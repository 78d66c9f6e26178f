"""AWD-LSTM style regularisers: DropConnect on the hidden-to-hidden matrix of
an nn.LSTM (weight drop) and a time-locked (variational) dropout mask."""
import warnings

import torch
import torch.nn as nn
import torch.nn.functional as F


def dropout_mask(x, sz, p):
    # The mask is built from x.data on purpose: it is a constant multiplier.
    return x.new_empty(*sz).bernoulli_(1 - p).div_(1 - p)


class RNNDropout(nn.Module):
    """Dropout with one mask shared along the time dimension."""

    def __init__(self, p=0.5):
        super().__init__()
        self.p = p

    def forward(self, x):
        if not self.training or self.p == 0.0:
            return x
        return x * dropout_mask(x.data, (1, x.size(1), x.size(2)), self.p)


class WeightDropout(nn.Module):
    """Keeps a raw copy of the recurrent weight and re-drops it every forward."""

    def __init__(self, module, weight_p, layer_names=("weight_hh_l0",), keep_graph=False):
        super().__init__()
        self.module, self.weight_p, self.layer_names = module, weight_p, list(layer_names)
        self.keep_graph = keep_graph
        for layer in self.layer_names:
            w = getattr(self.module, layer)
            del self.module._parameters[layer]
            self.register_parameter(f"{layer}_raw", nn.Parameter(w.data))
            setattr(self.module, layer, F.dropout(w.data, p=self.weight_p, training=False))
        self.module.flatten_parameters = self._do_nothing

    def _setweights(self):
        for layer in self.layer_names:
            raw_w = getattr(self, f"{layer}_raw")
            if self.keep_graph:
                w = F.dropout(raw_w, p=self.weight_p, training=self.training)
            else:
                w = F.dropout(raw_w.data, p=self.weight_p, training=self.training)
            setattr(self.module, layer, w)

    def forward(self, *args):
        self._setweights()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return self.module(*args)

    def _do_nothing(self, *args, **kwargs):
        pass
