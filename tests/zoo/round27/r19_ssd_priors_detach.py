"""
expect: none
dynamic: dismiss
source: https://github.com/openvinotoolkit/nncf/pull/524

While adding knowledge distillation, NNCF's SSD example started returning
priors.detach() from the detection head's forward, explaining in review that
the prior boxes are model outputs but are not trained: MultiBoxLoss only uses
them to encode targets, and outputs that should not be differentiated must not
require grad. Here an SSD-style head generates priors from the feature-map
geometry and returns them detached next to the loc/conf predictions; the loss
encodes ground truth against them. The asserts show backbone, loc and conf heads
all receive gradients, gradients are identical with or without the detach, and
the multibox loss goes down.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class PriorBox(nn.Module):
    def __init__(self, size=0.3):
        super().__init__()
        self.size = size

    def forward(self, feat):
        h, w = feat.shape[-2:]
        ys = (torch.arange(h, dtype=feat.dtype) + 0.5) / h
        xs = (torch.arange(w, dtype=feat.dtype) + 0.5) / w
        cy, cx = torch.meshgrid(ys, xs, indexing="ij")
        wh = feat.new_full((h * w, 2), self.size)
        return torch.cat([cx.reshape(-1, 1), cy.reshape(-1, 1), wh], 1)


class SSDHead(nn.Module):
    def __init__(self, n_cls=3, detach_priors=True):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, 16, 3, 2, 1), nn.ReLU(),
                                      nn.Conv2d(16, 16, 3, 2, 1), nn.ReLU())
        self.loc = nn.Conv2d(16, 4, 3, 1, 1)
        self.conf = nn.Conv2d(16, n_cls + 1, 3, 1, 1)
        self.prior_box = PriorBox()
        self.detach_priors = detach_priors

    def forward(self, img):
        f = self.backbone(img)
        loc = self.loc(f).flatten(2).transpose(1, 2)          # (B, P, 4)
        conf = self.conf(f).flatten(2).transpose(1, 2)        # (B, P, C+1)
        priors = self.prior_box(f)
        if self.detach_priors:
            priors = priors.detach()
        return loc, conf, priors


def multibox_loss(loc, conf, priors, gt_box, gt_cls):
    # match every image's single gt box to its nearest prior, encode the offset
    d = (priors[None, :, :2] - gt_box[:, None, :2]).norm(dim=-1)  # (B, P)
    best = d.argmin(1)
    enc = torch.cat([(gt_box[:, :2] - priors[best, :2]) / priors[best, 2:],
                     torch.log(gt_box[:, 2:] / priors[best, 2:])], 1)
    b = torch.arange(len(best))
    l_loc = F.smooth_l1_loss(loc[b, best], enc)
    target = torch.zeros(conf.shape[:2], dtype=torch.long)
    target[b, best] = gt_cls + 1
    l_conf = F.cross_entropy(conf.reshape(-1, conf.shape[-1]), target.reshape(-1))
    return l_loc + l_conf


def data(g, n=16):
    img = torch.randn(n, 3, 16, 16, generator=g)
    gt_box = torch.cat([torch.rand(n, 2, generator=g) * 0.8 + 0.1,
                        torch.rand(n, 2, generator=g) * 0.3 + 0.2], 1)
    gt_cls = torch.randint(0, 3, (n,), generator=g)
    return img, gt_box, gt_cls


def grads(detach_priors):
    torch.manual_seed(0)
    m = SSDHead(detach_priors=detach_priors)
    img, box, cls = data(torch.Generator().manual_seed(0))
    loc, conf, priors = m(img)
    multibox_loss(loc, conf, priors, box, cls).backward()
    return {n: p.grad.clone() for n, p in m.named_parameters()}, priors


if __name__ == "__main__":
    g_det, priors = grads(True)
    g_raw, _ = grads(False)
    assert not priors.requires_grad
    for name in ("backbone.0.weight", "loc.weight", "conf.weight"):
        assert g_det[name].abs().sum() > 0, name
    assert all(torch.equal(g_det[k], g_raw[k]) for k in g_det)   # detach changes nothing

    torch.manual_seed(0)
    model = SSDHead()
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    img, box, cls = data(torch.Generator().manual_seed(0))
    hist = []
    for _ in range(40):
        loss = multibox_loss(*model(img), box, cls)
        opt.zero_grad(); loss.backward(); opt.step()
        hist.append(loss.item())
    print("multibox loss", hist[0], "->", hist[-1])
    assert hist[-1] < 0.5 * hist[0]
    print("OK")
