"""
expect: GL004 82
dynamic: confirm
source: https://github.com/cornellius-gp/gpytorch/issues/485

Deep kernel learning: an exact GP with an RBF kernel on top of a small neural feature
extractor, trained by maximizing the marginal log likelihood. The training helper
`fit_deep_kernel_gp` projects the training inputs through the extractor once, before the
loop, and hands the projected features to the GP as its fixed train inputs. The first
iteration's backward frees that projection graph, the second iteration fails with "Trying to
backward through the graph a second time", and the suggested fix in the issue,
`loss.backward(retain_graph=True)`, is applied. Now every iteration backpropagates through the
same, stale projection graph from iteration 0: the extractor's gradient is always computed
from the features of its initial weights (the forward never sees the updated weights), and
the retained graph is reused instead of rebuilt. The asserts show the error without
retain_graph, then that with it the feature tensor the loss sees never changes although the
extractor weights do, that the extractor gradient differs from the true gradient at the
current weights, and that recomputing the features inside the loop (the fix, no retain_graph)
reaches a clearly better marginal likelihood.
"""
import math

import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


class FeatureExtractor(nn.Sequential):
    """Learned projection of the raw inputs into the kernel's feature space."""

    def __init__(self, dim, latent=4):
        super().__init__(nn.Linear(dim, latent), nn.Tanh())


class ExactRBFGP(nn.Module):
    def __init__(self):
        super().__init__()
        self.log_lengthscale = nn.Parameter(torch.zeros(()))
        self.log_outputscale = nn.Parameter(torch.zeros(()))
        self.log_noise = nn.Parameter(torch.tensor(-1.0))
        self.mean = nn.Parameter(torch.zeros(()))

    def covar(self, a, b):
        d2 = torch.cdist(a, b).pow(2)
        return self.log_outputscale.exp() * torch.exp(-0.5 * d2 / self.log_lengthscale.exp() ** 2)

    def neg_mll(self, z, y):
        n = z.size(0)
        K = self.covar(z, z) + (self.log_noise.exp() + 1e-4) * torch.eye(n)
        L = torch.linalg.cholesky(K)
        r = (y - self.mean).unsqueeze(1)
        alpha = torch.cholesky_solve(r, L)
        nll = 0.5 * (r * alpha).sum() + torch.log(torch.diagonal(L)).sum() + 0.5 * n * math.log(2 * math.pi)
        return nll / n


def make_data(n=80, dim=6):
    x = torch.randn(n, dim)
    y = torch.sin(2.0 * x[:, 0]) + 0.5 * x[:, 1] ** 2 + 0.05 * torch.randn(n)
    return x, y


def true_neg_mll(extractor, gp, x, y):
    with torch.no_grad():
        return gp.neg_mll(extractor(x), y).item()


def fit_deep_kernel_gp(extractor, gp, x, y, iters, retain, recompute_features, trace=None):
    params = list(extractor.parameters()) + list(gp.parameters())
    optimizer = torch.optim.Adam(params, lr=0.02)
    train_features = extractor(x)  # set once as the GP's training inputs
    for it in range(iters):
        optimizer.zero_grad()
        if recompute_features:
            train_features = extractor(x)
        loss = gp.neg_mll(train_features, y)
        if trace is not None:
            trace.append((train_features.detach().clone(), [p.detach().clone() for p in extractor.parameters()]))
        if retain:
            loss.backward(retain_graph=True)
        else:
            loss.backward()
        if trace is not None:
            trace[-1] = trace[-1] + ([p.grad.clone() for p in extractor.parameters()],)
        optimizer.step()
    return loss.item()


def main():
    x, y = make_data()

    # as first written: features computed once, plain backward -> error on iteration 2
    torch.manual_seed(1)
    ext, gp = FeatureExtractor(6), ExactRBFGP()
    try:
        fit_deep_kernel_gp(ext, gp, x, y, iters=3, retain=False, recompute_features=False)
        err = None
    except RuntimeError as e:
        err = str(e)
    assert err is not None and "second time" in err

    # the "fix" from the thread: retain_graph=True, stale projection graph reused every step
    torch.manual_seed(1)
    ext_b, gp_b = FeatureExtractor(6), ExactRBFGP()
    trace = []
    fit_deep_kernel_gp(ext_b, gp_b, x, y, iters=200, retain=True, recompute_features=False, trace=trace)
    feats_first, w_first, _ = trace[0]
    feats_last, w_last, grad_last = trace[-1]
    assert torch.equal(feats_first, feats_last)                      # loss never sees new weights
    assert not torch.allclose(w_first[0], w_last[0])                 # ... although they moved
    # gradient the extractor got vs. the true gradient at its current weights
    probe = FeatureExtractor(6)
    probe.load_state_dict(dict(zip(probe.state_dict().keys(), w_last)))
    gp_probe = ExactRBFGP()
    gp_probe.load_state_dict(gp_b.state_dict())
    true_grad = torch.autograd.grad(gp_probe.neg_mll(probe(x), y), list(probe.parameters()))
    cos = torch.nn.functional.cosine_similarity(grad_last[0].flatten(), true_grad[0].flatten(), dim=0)
    assert cos < 0.99, float(cos)
    stale_mll = true_neg_mll(ext_b, gp_b, x, y)

    # fixed: recompute the features every iteration, no retain_graph needed
    torch.manual_seed(1)
    ext_c, gp_c = FeatureExtractor(6), ExactRBFGP()
    fit_deep_kernel_gp(ext_c, gp_c, x, y, iters=200, retain=False, recompute_features=True)
    fresh_mll = true_neg_mll(ext_c, gp_c, x, y)
    print("neg MLL at final weights: retain_graph/stale %.4f, recomputed %.4f (grad cosine %.3f)"
          % (stale_mll, fresh_mll, float(cos)))
    assert fresh_mll < stale_mll - 0.05


if __name__ == "__main__":
    main()
