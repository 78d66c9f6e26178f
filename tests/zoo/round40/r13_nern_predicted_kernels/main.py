"""expect: GL001 reconstruct.py:45
dynamic: confirm
source: https://github.com/maorash/NeRN/issues/25

NeRN-style training: a small MLP predicts every 3x3 kernel of a CNN from positional embeddings of
(layer, filter, channel), and is trained with a weight-reconstruction loss plus distillation losses that
compare the reconstructed network's logits and feature maps with the original network's. The kernels reach
the reconstructed network through ReconstructedModel.update_weights (reconstruct.py), which assigns them
with `layer_weights.data = layer_weights.data * 0. + sampled`; assigning to .data copies numbers and drops
the predictor's graph, so the distillation and feature-map losses computed in main.py never reach the
predictor (only the direct reconstruction loss does), which the issue and the later "fixed gradient flow"
commit address. The asserts show the distillation losses give every predictor parameter a None gradient and
leave it unchanged over training, while a functional forward with the predicted kernels trains the predictor
and lowers the distillation loss.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call

from reconstruct import ReconstructedModel, SmallCNN

torch.manual_seed(0)
torch.set_num_threads(1)


def positional_embedding(layer, filt, chan, n_freq=4):
    coords = torch.tensor([layer / 2.0, filt / 4.0, chan / 4.0])
    freqs = 2.0 ** torch.arange(n_freq) * math.pi
    angles = coords.unsqueeze(1) * freqs
    return torch.cat([angles.sin().flatten(), angles.cos().flatten()])


class KernelPredictor(nn.Module):
    def __init__(self, emb_dim, kernel=5):
        super().__init__()
        self.kernel = kernel
        self.net = nn.Sequential(nn.Linear(emb_dim, 32), nn.ReLU(), nn.Linear(32, kernel * kernel))

    def forward(self, emb):
        return self.net(emb).view(-1, self.kernel, self.kernel)


def layer_embeddings(shapes):
    out = []
    for li, (n_out, n_in) in enumerate(shapes):
        out.append(torch.stack([positional_embedding(li, f, c) for f in range(n_out) for c in range(n_in)]))
    return out


def predict_all(predictor, embeddings, shapes):
    return [predictor(e).view(n_out, n_in, predictor.kernel, predictor.kernel)
            for e, (n_out, n_in) in zip(embeddings, shapes)]


def distillation_terms(rec_logits, rec_maps, orig_logits, orig_maps, T=2.0):
    kd = F.kl_div(F.log_softmax(rec_logits / T, 1), F.softmax(orig_logits / T, 1), reduction="batchmean")
    fm = sum(F.mse_loss(r.pow(2).mean(1), o.pow(2).mean(1)) for r, o in zip(rec_maps, orig_maps))
    return kd + fm


original = SmallCNN()
reconstructed = ReconstructedModel(original)
original.requires_grad_(False)
shapes = [tuple(w.shape[:2]) for w in original.get_learnable_weights()]
embeddings = layer_embeddings(shapes)
x = torch.randn(16, 3, 8, 8)
with torch.no_grad():
    orig_logits, orig_maps = original(x)

# As written: kernels copied in through .data, distillation losses computed on the reconstructed network.
predictor = KernelPredictor(embeddings[0].shape[1])
start = [p.detach().clone() for p in predictor.parameters()]
opt = torch.optim.Adam(predictor.parameters(), lr=0.01)
for step in range(10):
    predicted = predict_all(predictor, embeddings, shapes)
    reconstructed.update_weights(predicted)
    rec_logits, rec_maps = reconstructed.get_feature_maps(x)
    distill = distillation_terms(rec_logits, rec_maps, orig_logits, orig_maps)
    grads = torch.autograd.grad(distill, list(predictor.parameters()), allow_unused=True)
    assert all(g is None for g in grads)
    opt.zero_grad()
    distill.backward()
    opt.step()
assert all(torch.equal(p, s) for p, s in zip(predictor.parameters(), start))

# Intended: run the copied network functionally with the predicted kernels so the graph is kept.
torch.manual_seed(1)
predictor = KernelPredictor(embeddings[0].shape[1])
opt = torch.optim.Adam(predictor.parameters(), lr=0.01)
history = []
for step in range(60):
    predicted = predict_all(predictor, embeddings, shapes)
    kernels = {"conv1.weight": predicted[0][:, :, 1:4, 1:4], "conv2.weight": predicted[1][:, :, 1:4, 1:4]}
    rec_logits, rec_maps = functional_call(reconstructed.reconstructed_model, kernels, (x,))
    distill = distillation_terms(rec_logits, rec_maps, orig_logits, orig_maps)
    opt.zero_grad()
    distill.backward()
    if step == 0:
        assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in predictor.parameters())
    opt.step()
    history.append(distill.item())
assert history[-1] < 0.5 * history[0], history
print("functional reconstruction: distillation loss %.4f -> %.4f" % (history[0], history[-1]))
