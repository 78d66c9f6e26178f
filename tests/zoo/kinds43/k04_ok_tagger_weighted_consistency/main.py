"""
expect: none
dynamic: dismiss
source: kinds check 43, kind 2

An audio-clip tagger (multi-label) on pooled spectrogram features. The loss function in loss_fns.py receives the
tagger itself plus a per-clip `weight` the caller computed from the tagger's own confidence under `.detach()`; the
function only uses that weight to scale a noise-consistency term that it recomputes from the tagger (attached), so
the detached value is a constant weight, as intended. The asserts show the weight carries no graph, that the full
objective's gradient differs from the plain BCE gradient (the weighted term does reach the parameters), and that
training moves every parameter and lowers the objective.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from loss_fns import tagging_objective

torch.manual_seed(3)

N_CLIPS, FEAT, TAGS = 128, 20, 6


class Tagger(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Sequential(nn.Linear(FEAT, 64), nn.ReLU())
        self.cls = nn.Linear(64, TAGS)

    def forward(self, x):
        return self.cls(self.enc(x))


def main():
    clips = torch.randn(N_CLIPS, FEAT)
    labels = (clips @ torch.randn(FEAT, TAGS) > 0.7).float()
    tagger = Tagger()
    opt = torch.optim.AdamW(tagger.parameters(), lr=5e-3, weight_decay=0.0)
    start = [p.detach().clone() for p in tagger.parameters()]
    params = list(tagger.parameters())
    losses = []

    for step in range(80):
        weight = torch.sigmoid(tagger(clips)).sub(0.5).abs().mul(2).mean(-1).detach()
        gen = torch.Generator().manual_seed(step)
        loss = tagging_objective(tagger, clips, labels, weight, generator=gen)
        if step == 40:
            assert not weight.requires_grad
            g_full = torch.autograd.grad(loss, params, retain_graph=True)
            g_bce = torch.autograd.grad(F.binary_cross_entropy_with_logits(tagger(clips), labels), params)
            assert max((a - b).abs().max().item() for a, b in zip(g_full, g_bce)) > 1e-4, "weighted consistency term adds no gradient"
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())

    assert all(not torch.equal(a, p.detach()) for a, p in zip(start, tagger.parameters()))
    assert losses[-1] < 0.7 * losses[0], (losses[0], losses[-1])
    print(f"tagger: objective {losses[0]:.3f} -> {losses[-1]:.3f}")


if __name__ == "__main__":
    main()
