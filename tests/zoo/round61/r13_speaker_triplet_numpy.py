"""
expect: GL002 54
dynamic: confirm
source: https://github.com/lealex262/DeepSpeaker-pytorch/blob/0fc2ed9d2d6c4f699f9bb586d69f2166f761100e/train_triplet.py

DeepSpeaker-pytorch trains a speaker-embedding network on (anchor, positive,
negative) utterances. In the hard-triplet phase of train_triplet.py it finds the
triplets that violate the margin with NumPy, then rebuilds the selected embeddings by
taking each output to NumPy (through .data), indexing the array and wrapping it again
with torch.from_numpy / Variable. The triplet loss on those rebuilt tensors has no
history back to the network, so it is a constant added to the cross-entropy term that
the classifier computes on the re-forwarded selected utterances: the optimizer only
ever sees the softmax gradient and the metric-learning part of the method does
nothing. This reduction uses a small MLP over fake MFCC frames and does the round trip once for
the stacked (a, p, n) outputs: the asserts show the
rebuilt triplet term does not require grad and that the gradients of CE + triplet are
identical to those of CE alone; selecting the hard triplets by indexing the torch
outputs instead (the fixed branch) gives a triplet term with a non-zero gradient that changes the update.
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

N_SPK, FEAT, EMB = 5, 40, 16
MARGIN = 2.0


class SpeakerNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.frame = nn.Sequential(nn.Linear(FEAT, 32), nn.ReLU(), nn.Linear(32, EMB))
        self.classifier = nn.Linear(EMB, N_SPK)

    def forward(self, utt):                      # utt: (B, frames, FEAT)
        emb = self.frame(utt).mean(dim=1)
        return F.normalize(emb, dim=1) * 4.0

    def forward_classifier(self, utt):
        return self.classifier(self(utt))


def hard_triplet_losses(model, data_a, data_p, data_n, label_a, rebuild_with_numpy):
    out_a, out_p, out_n = model(data_a), model(data_p), model(data_n)
    d_p = F.pairwise_distance(out_a, out_p)
    d_n = F.pairwise_distance(out_a, out_n)
    violating = (d_n - d_p < MARGIN).cpu().numpy().flatten()
    hard = np.where(violating == 1)
    if rebuild_with_numpy:
        outs = torch.stack([out_a, out_p, out_n]).detach().cpu().numpy()
        sel_a, sel_p, sel_n = torch.from_numpy(outs[:, hard[0]])
    else:
        idx = torch.from_numpy(hard[0])
        sel_a, sel_p, sel_n = out_a[idx], out_p[idx], out_n[idx]
    triplet = F.triplet_margin_loss(sel_a, sel_p, sel_n, margin=MARGIN)
    sel_data_a = data_a[torch.from_numpy(hard[0])]
    sel_label = label_a[torch.from_numpy(hard[0])]
    ce = F.cross_entropy(model.forward_classifier(sel_data_a), sel_label)
    return ce, triplet


def grads_of(model, loss):
    model.zero_grad()
    loss.backward()
    return [p.grad.detach().clone() for p in model.frame.parameters()]


def make_batch(n=16, frames=10):
    spk_mean = 0.5 * torch.randn(N_SPK, FEAT)
    label_a = torch.randint(0, N_SPK, (n,))
    label_n = (label_a + torch.randint(1, N_SPK, (n,))) % N_SPK
    data_a = spk_mean[label_a, None] + torch.randn(n, frames, FEAT)
    data_p = spk_mean[label_a, None] + torch.randn(n, frames, FEAT)
    data_n = spk_mean[label_n, None] + torch.randn(n, frames, FEAT)
    return data_a, data_p, data_n, label_a


def main():
    batch = make_batch()
    model = SpeakerNet()

    ce, triplet = hard_triplet_losses(model, *batch, rebuild_with_numpy=True)
    assert triplet.item() > 0 and not triplet.requires_grad
    g_total = grads_of(model, ce + triplet)
    ce, _ = hard_triplet_losses(model, *batch, rebuild_with_numpy=True)
    g_ce = grads_of(model, ce)
    assert all(torch.allclose(a, b) for a, b in zip(g_total, g_ce)), \
        "triplet term should add nothing to the gradient"

    ce, triplet = hard_triplet_losses(model, *batch, rebuild_with_numpy=False)
    assert triplet.requires_grad
    g_total = grads_of(model, ce + triplet)
    ce, triplet = hard_triplet_losses(model, *batch, rebuild_with_numpy=False)
    g_trip = grads_of(model, triplet)
    assert sum(g.abs().sum() for g in g_trip) > 0
    assert not all(torch.allclose(a, b) for a, b in zip(g_total, g_ce))

    print("numpy-rebuilt triplet term: constant, gradient equals CE-only gradient")
    print("torch-indexed triplet term: contributes gradient to the embedding net")


if __name__ == "__main__":
    main()
