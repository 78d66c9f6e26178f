"""Leaky integrate-and-fire layer with optional recording of the membrane state."""
import torch
import torch.nn as nn


class SpikeFn(torch.autograd.Function):
    """Heaviside spike with a fast-sigmoid surrogate derivative."""

    @staticmethod
    def forward(ctx, v_minus_thr):
        ctx.save_for_backward(v_minus_thr)
        return (v_minus_thr > 0).to(v_minus_thr.dtype)

    @staticmethod
    def backward(ctx, grad_out):
        (v_minus_thr,) = ctx.saved_tensors
        return grad_out / (1.0 + 10.0 * v_minus_thr.abs()) ** 2


def lif_forward(inputs, v_mem, alpha, threshold, record_states, keep_graph_in_record):
    """inputs: (batch, time, features). Returns spikes, last state, recordings."""
    spikes = []
    recorded = []
    for t in range(inputs.shape[1]):
        v_mem = alpha * v_mem + inputs[:, t]
        spk = SpikeFn.apply(v_mem - threshold)
        v_mem = v_mem - spk * threshold  # subtractive reset
        spikes.append(spk)
        if record_states:
            if keep_graph_in_record:
                recorded.append(v_mem.clone())
            else:
                recorded.append(v_mem.detach().clone())
    rec = torch.stack(recorded, 1) if record_states else None
    return torch.stack(spikes, 1), v_mem, rec


class LIF(nn.Module):
    def __init__(self, alpha=0.9, threshold=1.0, record_states=True, keep_graph_in_record=False):
        super().__init__()
        self.alpha = alpha
        self.threshold = threshold
        self.record_states = record_states
        self.keep_graph_in_record = keep_graph_in_record
        self.recordings = {}

    def forward(self, x):
        v0 = torch.zeros(x.shape[0], x.shape[2])
        spikes, _, rec = lif_forward(x, v0, self.alpha, self.threshold,
                                     self.record_states, self.keep_graph_in_record)
        if rec is not None:
            self.recordings["v_mem"] = rec
        return spikes
