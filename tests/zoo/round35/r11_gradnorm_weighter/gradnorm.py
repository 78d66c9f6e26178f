import torch


class GradNormWeighter:
    """Task weights balanced by gradient norms (GradNorm).

    The weights are a plain leaf tensor with their own optimizer; the
    model is trained by the caller's optimizer from the weighted sum.
    """

    def __init__(self, n_tasks, alpha=1.5, lr=0.01):
        self.n_tasks = n_tasks
        self.alpha = alpha
        self.weights = torch.ones(n_tasks, requires_grad=True)
        self.w_opt = torch.optim.Adam([self.weights], lr=lr)
        self.init_losses = None

    def backward(self, losses, last_shared):
        if self.init_losses is None:
            self.init_losses = losses.detach().clone()
        weighted = self.weights * losses
        total = weighted.sum()
        # keep the graph once: the per-task norms below walk it again
        total.backward(retain_graph=True)

        norms = []
        for i in range(self.n_tasks):
            g = torch.autograd.grad(weighted[i], last_shared,
                                    retain_graph=True, create_graph=True)[0]
            norms.append(g.norm())
        norms = torch.stack(norms)

        # the target is a constant in the GradNorm objective
        with torch.no_grad():
            ratio = losses / self.init_losses
            inv_rate = ratio / ratio.mean()
            target = norms.mean() * inv_rate ** self.alpha
        gn_loss = (norms - target).abs().sum()
        self.weights.grad = torch.autograd.grad(gn_loss, self.weights)[0]
        self.w_opt.step()
        with torch.no_grad():
            self.weights.clamp_(min=1e-3)
            self.weights.mul_(self.n_tasks / self.weights.sum())
        return total.detach()
