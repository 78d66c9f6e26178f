"""Minibatch unbalanced optimal transport for domain adaptation (JUMBOT-style):
the transport plan is solved outside autograd and then used as fixed weights
on a differentiable ground cost."""
import numpy as np
import torch
import torch.nn.functional as F


def sinkhorn_unbalanced(a, b, M, reg, reg_m, n_iter=200):
    """Entropic unbalanced OT plan (numpy), generalised Sinkhorn-Knopp."""
    K = np.exp(-M / reg)
    fi = reg_m / (reg_m + reg)
    u = np.ones_like(a)
    v = np.ones_like(b)
    for _ in range(n_iter):
        u = (a / np.maximum(K @ v, 1e-300)) ** fi
        v = (b / np.maximum(K.T @ u, 1e-300)) ** fi
    return u[:, None] * K * v[None, :]


class Jumbot:
    def __init__(self, model_g, model_f, n_class, eta1=0.1, eta2=0.1, tau=1.0, epsilon=0.1):
        self.model_g, self.model_f, self.n_class = model_g, model_f, n_class
        self.eta1, self.eta2, self.tau, self.epsilon = eta1, eta2, tau, epsilon

    def step(self, xs, ys, xt, opt_g, opt_f):
        g_xs, g_xt = self.model_g(xs), self.model_g(xt)
        f_g_xs = self.model_f(g_xs)
        pred_xt = F.softmax(self.model_f(g_xt), 1)
        s_loss = F.cross_entropy(f_g_xs, ys)

        embed_cost = torch.cdist(g_xs, g_xt) ** 2
        ys_oh = F.one_hot(ys, num_classes=self.n_class).float()
        t_cost = -torch.mm(ys_oh, torch.log(pred_xt + 1e-8).t())
        total_cost = self.eta1 * embed_cost + self.eta2 * t_cost

        a = np.full(xs.size(0), 1.0 / xs.size(0))
        b = np.full(xt.size(0), 1.0 / xt.size(0))
        pi = sinkhorn_unbalanced(a, b, total_cost.detach().cpu().numpy(), self.epsilon, self.tau)
        pi = torch.from_numpy(pi).float()

        opt_g.zero_grad()
        opt_f.zero_grad()
        da_loss = torch.sum(pi * total_cost)
        tot_loss = s_loss + da_loss
        tot_loss.backward()
        opt_g.step()
        opt_f.step()
        return s_loss.item(), da_loss.item(), pi
