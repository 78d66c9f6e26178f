"""
expect: none
dynamic: dismiss
source: https://github.com/arinaLozhkina/LowResolutionFaceRecognition/blob/5a9d69b281928090ef96cc56ba27ce2445ad9e7c/head/arcface.py

The ArcFace head in LowResolutionFaceRecognition looks alarming at first: every
forward overwrites the class-weight parameter through `.data` with its column-wise
normalization, and the angular margin is computed entirely under torch.no_grad() with
in-place edits (arccos, add the margin at the label, clamp), giving an offset
d_theta = cos(theta + m) - cos(theta) that carries no history. But this is the known
"detached margin" formulation (used by OpenSphere/SphereFace-Revived): the logits are
s * (cos_theta + d_theta), so the forward value is exactly the ArcFace logit while the
gradient flows through cos_theta, which is built on the graph from the normalized
features and the weight parameter. The `.data` renormalization happens before the
weight is used in this step's graph and after the last backward, so nothing saved is
edited. The asserts check the logits equal s*cos(theta+m) at the label, that both the
class weights and the backbone get non-zero gradients and change, that the weight
columns stay unit-norm, and that the loss falls and training accuracy rises.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

N_IDS, IN_DIM, FEAT = 6, 24, 16


class ArcFace(nn.Module):
    def __init__(self, feat_dim, num_class, s=16.0, margin=0.35):
        super().__init__()
        self.s, self.m = s, margin
        self.w = nn.Parameter(torch.empty(feat_dim, num_class))
        nn.init.xavier_normal_(self.w)

    def forward(self, feats, labels):
        with torch.no_grad():
            self.w.data = F.normalize(self.w.data, dim=0)
        cos_theta = F.normalize(feats, dim=1).mm(self.w)
        with torch.no_grad():
            theta_m = torch.acos(cos_theta.clamp(-1 + 1e-5, 1 - 1e-5))
            theta_m[torch.arange(labels.numel()), labels] += self.m
            theta_m.clamp_(1e-5, 3.14159)
            d_theta = torch.cos(theta_m) - cos_theta
        return self.s * (cos_theta + d_theta)


def make_data(n=120):
    protos = torch.randn(N_IDS, IN_DIM)
    y = torch.randint(0, N_IDS, (n,))
    return protos[y] + 0.6 * torch.randn(n, IN_DIM), y


def main():
    x, y = make_data()
    backbone = nn.Sequential(nn.Linear(IN_DIM, 32), nn.PReLU(), nn.Linear(32, FEAT))
    head = ArcFace(FEAT, N_IDS)
    opt = torch.optim.SGD(list(backbone.parameters()) + list(head.parameters()), lr=0.05, momentum=0.9)
    w_start = F.normalize(head.w.detach(), dim=0).clone()
    bb_start = backbone[0].weight.detach().clone()

    logits = head(backbone(x), y)
    with torch.no_grad():
        cos = F.normalize(backbone(x), dim=1).mm(head.w)
        idx = torch.arange(y.numel())
        expected = head.s * torch.cos(torch.acos(cos[idx, y].clamp(-1 + 1e-5, 1 - 1e-5)) + head.m)
    assert torch.allclose(logits[idx, y].detach(), expected, atol=1e-4)

    losses, accs = [], []
    for _ in range(60):
        logits = head(backbone(x), y)
        loss = F.cross_entropy(logits, y)
        opt.zero_grad()
        loss.backward()
        assert head.w.grad is not None and head.w.grad.abs().sum() > 0
        assert backbone[0].weight.grad.abs().sum() > 0
        opt.step()
        losses.append(loss.item())
        with torch.no_grad():
            cos = F.normalize(backbone(x), dim=1).mm(F.normalize(head.w, dim=0))
            accs.append((cos.argmax(1) == y).float().mean().item())

    head(backbone(x), y)   # renormalizes the weight columns in place
    assert torch.allclose(head.w.detach().norm(dim=0), torch.ones(N_IDS), atol=1e-5)
    assert not torch.allclose(head.w.detach(), w_start)
    assert not torch.equal(backbone[0].weight.detach(), bb_start)
    assert losses[-1] < 0.5 * losses[0]
    assert accs[-1] > 0.9

    print("detached-margin ArcFace: loss %.3f -> %.3f, train acc %.2f" % (losses[0], losses[-1], accs[-1]))


if __name__ == "__main__":
    main()
