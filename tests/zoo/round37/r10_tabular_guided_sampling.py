"""
expect: none
dynamic: dismiss
source: https://github.com/weipang142857/ClavaDDPM/blob/HEAD/pipeline_utils.py

ClavaDDPM samples synthetic table rows with a diffusion model guided by a classifier:
inside a no-grad sampling loop, cond_fn re-enables grad, takes x.detach() and calls
requires_grad_(True) on it, then differentiates the class log-probability with
respect to that fresh leaf. Nothing is trained there, so the detach and the switch
are on purpose. The asserts check the guidance gradient is nonzero, that guided
samples score higher for the target class than unguided ones, that sampling leaves
no gradients on any parameter, and that the classifier itself did train.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

T_STEPS, D = 20, 4
betas = torch.linspace(1e-3, 0.2, T_STEPS)
alphas = 1 - betas
abar = torch.cumprod(alphas, 0)


class Denoiser(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(D + 1, 32), nn.SiLU(), nn.Linear(32, D))

    def forward(self, x, t):
        return self.net(torch.cat([x, t.float()[:, None] / T_STEPS], 1))


class NoisyClassifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(D + 1, 32), nn.SiLU(), nn.Linear(32, 2))

    def forward(self, x, t):
        return self.net(torch.cat([x, t.float()[:, None] / T_STEPS], 1))


# two clusters of rows, label = cluster
y_data = torch.randint(0, 2, (256,))
x_data = torch.randn(256, D) * 0.3 + (y_data[:, None].float() * 2 - 1)

eps_model, clf = Denoiser(), NoisyClassifier()
opt = torch.optim.Adam(list(eps_model.parameters()) + list(clf.parameters()), lr=3e-3)
clf_losses = []
for it in range(150):
    t = torch.randint(0, T_STEPS, (256,))
    noise = torch.randn_like(x_data)
    xt = abar[t].sqrt()[:, None] * x_data + (1 - abar[t]).sqrt()[:, None] * noise
    l_eps = F.mse_loss(eps_model(xt, t), noise)
    l_clf = F.cross_entropy(clf(xt, t), y_data)
    opt.zero_grad()
    (l_eps + l_clf).backward()
    opt.step()
    clf_losses.append(l_clf.item())
assert clf_losses[-1] < clf_losses[0]
opt.zero_grad(set_to_none=True)


def make_cond_fn(classifier, scale):
    def cond_fn(x, t, y):
        with torch.enable_grad():
            x_in = x.detach().requires_grad_(True)
            log_probs = F.log_softmax(classifier(x_in, t), dim=-1)
            selected = log_probs[range(len(y)), y]
            return torch.autograd.grad(selected.sum(), x_in)[0] * scale
    return cond_fn


@torch.no_grad()
def sample(n, y, cond_fn=None, seed=0):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, D, generator=g)
    for k in reversed(range(T_STEPS)):
        t = torch.full((n,), k)
        eps = eps_model(x, t)
        mean = (x - betas[k] / (1 - abar[k]).sqrt() * eps) / alphas[k].sqrt()
        if cond_fn is not None:
            mean = mean + betas[k] * cond_fn(x, t, y)
        noise = torch.randn(n, D, generator=g) if k > 0 else torch.zeros(n, D)
        x = mean + betas[k].sqrt() * noise
    return x


y_target = torch.ones(64, dtype=torch.long)
cond_fn = make_cond_fn(clf, scale=3.0)
g = cond_fn(torch.randn(8, D), torch.full((8,), 5), y_target[:8])
assert g.abs().sum() > 0

plain = sample(64, y_target)
guided = sample(64, y_target, cond_fn)
with torch.no_grad():
    zero_t = torch.zeros(64, dtype=torch.long)
    p_plain = F.softmax(clf(plain, zero_t), -1)[:, 1].mean()
    p_guided = F.softmax(clf(guided, zero_t), -1)[:, 1].mean()
assert p_guided > p_plain, (p_plain.item(), p_guided.item())
assert all(p.grad is None for p in list(eps_model.parameters()) + list(clf.parameters()))
print("ok: detach + requires_grad_ inside cond_fn is intended guidance, not training")
