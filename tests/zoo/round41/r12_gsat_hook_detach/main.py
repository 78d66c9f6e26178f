"""
expect: GL001 gsat_layer.py:17
dynamic: confirm
source: https://github.com/ispras/GNN-AID/commit/e8b5e178a5404aa54cb768ac134cb8634d8ecadc

A graph-attention explainer layer in the style of GSAT sits inside a small message-passing
GNN. On its first call it samples edge attention from the node embeddings, re-runs the whole
GNN with that attention, and returns the input it sees during the attended pass, which a
forward pre-hook (gsat_layer.py) stored as x.detach(). The layer's output is therefore a leaf:
the prediction loss flows into conv2 and the head, but nothing reaches conv1 or the attention
extractor through the prediction path (they only see the small information penalty on the
attention values). The asserts take the gradient of the prediction loss alone and show it is
None for conv1 and the extractor, then swap the hook for x.clone() (the upstream fix) and show
both receive a non-zero prediction gradient.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from gsat_layer import GSATLayer

torch.manual_seed(0)
torch.set_num_threads(1)


class GSATLayerClone(GSATLayer):
    def save_input_hook(self, module, args, kwargs):
        self.hook_saved_value = kwargs["x"].clone()


class AttentionGNN(nn.Module):
    def __init__(self, in_dim, hid, n_cls, layer_cls):
        super().__init__()
        self.conv1 = nn.Linear(in_dim, hid)
        self.gsat = layer_cls(hid)
        self.conv2 = nn.Linear(hid, hid)
        self.head = nn.Linear(hid, n_cls)

    @staticmethod
    def propagate(h, edge_index, edge_att):
        src, dst = edge_index
        w = torch.ones(src.numel()) if edge_att is None else edge_att
        agg = torch.zeros_like(h).index_add(0, dst, h[src] * w[:, None])
        return agg + h

    def forward(self, x, edge_index, edge_att=None):
        h = torch.relu(self.propagate(self.conv1(x), edge_index, edge_att))
        h = self.gsat(x=h, edge_index=edge_index,
                      rerun=lambda edge_att: self(x, edge_index, edge_att=edge_att))
        h = torch.relu(self.propagate(self.conv2(h), edge_index, None))
        return self.head(h)


def gsat_losses(model, x, edge_index, y, r=0.7):
    logits = model(x, edge_index)
    pred_loss = F.cross_entropy(logits, y)
    att = model.gsat.att
    info_loss = (att * torch.log(att / r + 1e-6)
                 + (1 - att) * torch.log((1 - att) / (1 - r) + 1e-6)).mean()
    return pred_loss, info_loss


n_nodes = 30
x = torch.randn(n_nodes, 8)
edge_index = torch.randint(0, n_nodes, (2, 90))
y = torch.randint(0, 3, (n_nodes,))


def prediction_grads(layer_cls):
    torch.manual_seed(1)
    model = AttentionGNN(8, 16, 3, layer_cls)
    pred_loss, info_loss = gsat_losses(model, x, edge_index, y)
    watched = [model.conv1.weight, model.gsat.extractor[0].weight, model.conv2.weight]
    grads = torch.autograd.grad(pred_loss, watched, allow_unused=True, retain_graph=True)
    (pred_loss + info_loss).backward()
    return grads, model


(g_conv1, g_extr, g_conv2), model = prediction_grads(GSATLayer)
assert g_conv1 is None and g_extr is None       # prediction loss never reaches them
assert g_conv2 is not None and g_conv2.abs().sum() > 0
assert model.conv1.weight.grad is not None      # only the attention penalty touches conv1

(f_conv1, f_extr, f_conv2), _ = prediction_grads(GSATLayerClone)
assert f_conv1 is not None and f_conv1.abs().sum() > 0
assert f_extr is not None and f_extr.abs().sum() > 0
print("prediction gradient reaches conv1/extractor only when the hook clones instead of detaching")
