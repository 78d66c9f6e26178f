"""
expect: GL001 main.py:54
dynamic: confirm
source: https://github.com/jwohlwend/boltz/pull/202

In Boltz-1 the diffusion sampler returns, next to the coordinates, an
accumulated token representation (diff_token_repr) built by OutTokenFeatUpdate
from the score model's per-step single representation; the confidence head
reads it. PR #202 pointed out that the confidence loss could leak into the
diffusion module and trunk and proposed detaching diff_token_repr where the
confidence model consumes it. The maintainer agreed a stop-gradient was needed
but rejected that placement: detaching the accumulated output also cuts the
OutTokenFeatUpdate weights, which are trained only by the confidence loss, so
they would never move; the detach belongs right where token_a leaves the
denoiser (his commit detaches "token_a" in DiffusionModule.forward). This
program trains the confidence head with the PR's placement and with the
maintainer's: with the PR's detach the accumulator gets no gradient and its
weights stay bit-identical (asserted), with the maintainer's placement it
trains, and in both variants the score model is untouched by the confidence loss
(asserted).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from diffusion import ScoreModel, OutTokenFeatUpdate, sample

torch.manual_seed(0)
torch.set_num_threads(1)

D_TOKEN, D_ATOM, N_TOK, N_BINS = 16, 3, 10, 5


class ConfidenceHead(nn.Module):
    def __init__(self):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(D_TOKEN, 32), nn.ReLU(), nn.Linear(32, N_BINS))

    def forward(self, token_repr):
        return self.mlp(token_repr)


def build():
    torch.manual_seed(0)
    return ScoreModel(D_TOKEN, D_ATOM), OutTokenFeatUpdate(D_TOKEN), ConfidenceHead()


def confidence_step(score_model, feat_update, confidence, opt, s_trunk, plddt_bins, maintainer_fix):
    if maintainer_fix:
        out = sample(score_model, feat_update, s_trunk, D_ATOM, detach_token=True)
        logits = confidence(out["diff_token_repr"])
    else:
        out = sample(score_model, feat_update, s_trunk, D_ATOM)
        logits = confidence(out["diff_token_repr"].detach())
    loss = F.cross_entropy(logits.reshape(-1, N_BINS), plddt_bins.reshape(-1))
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.item()


s_trunk = torch.randn(4, N_TOK, D_TOKEN)
plddt_bins = torch.randint(0, N_BINS, (4, N_TOK))

for maintainer_fix in (False, True):
    score_model, feat_update, confidence = build()
    params = list(feat_update.parameters()) + list(confidence.parameters())
    opt = torch.optim.Adam(params, lr=5e-3)
    w_update0 = feat_update.transition.weight.detach().clone()
    w_score0 = score_model.token_proj.weight.detach().clone()
    for _ in range(20):
        confidence_step(score_model, feat_update, confidence, opt, s_trunk, plddt_bins, maintainer_fix)
    assert score_model.token_proj.weight.grad is None          # no leak into the diffusion module
    assert torch.equal(w_score0, score_model.token_proj.weight)
    assert confidence.mlp[0].weight.grad is not None
    if maintainer_fix:
        g = feat_update.transition.weight.grad
        assert g is not None and g.abs().sum() > 0
        assert not torch.equal(w_update0, feat_update.transition.weight)
        print("detach at token_a: OutTokenFeatUpdate trained, score model untouched")
    else:
        assert feat_update.transition.weight.grad is None
        assert torch.equal(w_update0, feat_update.transition.weight)
        print("detach at diff_token_repr: OutTokenFeatUpdate frozen by accident")
