"""
expect: none
dynamic: dismiss
source: https://github.com/fungtion/DANN/issues/3

Domain adaptation with DANN. The domain classifier sits behind a gradient reversal layer,
a torch.autograd.Function whose forward returns `x.view_as(x)` and whose backward returns
the negated, alpha-scaled gradient (and None for alpha). It looks like the features are cut
out of the graph, but the custom backward keeps them connected: the domain loss trains the
domain classifier normally and pushes the feature extractor in the opposite direction.
The asserts compare the feature-extractor gradient of the domain loss with the gradient of
the same loss computed without the reversal (it must be exactly -alpha times it), check
the domain classifier gradient is unchanged, and run a short source+target training loop in
which the label loss on the source domain falls.
"""
import torch
import torch.nn.functional as F

from dann_model import DANNModel

torch.manual_seed(0)
torch.set_num_threads(1)

model = DANNModel()
xs = torch.randn(32, 20)
ys = (xs[:, 0] > 0).long() + (xs[:, 1] > 0).long()
xt = torch.randn(32, 20) + 0.5
alpha = 0.3

# gradient of the domain loss through the reversal layer
_, dom_s = model(xs, alpha)
loss_dom = F.cross_entropy(dom_s, torch.zeros(32, dtype=torch.long))
g_feat_rev, g_dom_rev = torch.autograd.grad(
    loss_dom, [model.feature[0].weight, model.domain_classifier[0].weight])
# the same loss with no reversal
feat = model.feature(xs)
plain = F.cross_entropy(model.domain_classifier(feat), torch.zeros(32, dtype=torch.long))
g_feat, g_dom = torch.autograd.grad(
    plain, [model.feature[0].weight, model.domain_classifier[0].weight])
assert g_feat.abs().sum() > 0
assert torch.allclose(g_feat_rev, -alpha * g_feat, atol=1e-6)
assert torch.allclose(g_dom_rev, g_dom, atol=1e-6)

optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
w0 = model.feature[0].weight.detach().clone()
hist = []
for step in range(150):
    p = step / 150
    alpha = 2.0 / (1.0 + torch.exp(torch.tensor(-10.0 * p)).item()) - 1
    optimizer.zero_grad()
    cls_s, dom_s = model(xs, alpha)
    _, dom_t = model(xt, alpha)
    err_label = F.cross_entropy(cls_s, ys)
    err_domain = F.cross_entropy(dom_s, torch.zeros(32, dtype=torch.long)) \
        + F.cross_entropy(dom_t, torch.ones(32, dtype=torch.long))
    (err_label + err_domain).backward()
    optimizer.step()
    hist.append(err_label.item())
assert not torch.equal(w0, model.feature[0].weight)
print(f"source label loss {hist[0]:.3f} -> {hist[-1]:.3f}")
assert hist[-1] < 0.5 * hist[0]
