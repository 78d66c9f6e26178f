"""GSAT attention layer: samples edge attention, re-runs the parent GNN with it, returns the hooked input."""
import torch
import torch.nn as nn


class GSATLayer(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.extractor = nn.Sequential(nn.Linear(2 * dim, dim), nn.ReLU(), nn.Linear(dim, 1))
        self.is_inside = False
        self.hook_saved_value = None
        self.att = None
        self.register_forward_pre_hook(self.save_input_hook, with_kwargs=True)

    def save_input_hook(self, module, args, kwargs):
        x = kwargs["x"]
        self.hook_saved_value = x.detach()

    def sample(self, logits):
        noise = torch.rand_like(logits).clamp(1e-6, 1 - 1e-6)
        return torch.sigmoid(logits + torch.log(noise) - torch.log(1.0 - noise))

    def forward(self, x, edge_index, rerun):
        if self.is_inside:
            return x
        self.is_inside = True
        src, dst = edge_index
        att_logits = self.extractor(torch.cat([x[src], x[dst]], dim=-1)).squeeze(-1)
        self.att = self.sample(att_logits)
        rerun(edge_att=self.att)  # the pre-hook captures the layer input of this attended pass
        out = self.hook_saved_value
        self.hook_saved_value = None
        self.is_inside = False
        return out
