"""OT counting loss with a hand-built gradient (DM-Count style)."""
import torch
import torch.nn as nn


def sinkhorn_log(a, b, cost, reg, iters=80):
    """Entropic OT between a (n,) and b (m,); returns the plan and the dual potential of b."""
    log_a, log_b = torch.log(a), torch.log(b + 1e-16)
    f = torch.zeros_like(a)
    g = torch.zeros_like(b)
    for _ in range(iters):
        f = reg * log_a - reg * torch.logsumexp((g[None, :] - cost) / reg, dim=1)
        g = reg * log_b - reg * torch.logsumexp((f[:, None] - cost) / reg, dim=0)
    plan = torch.exp((f[:, None] + g[None, :] - cost) / reg)
    return plan, g


class OTLoss(nn.Module):
    def __init__(self, crop_size, stride, reg=2.0):
        super().__init__()
        self.reg = reg
        self.cood = (torch.arange(0, crop_size, stride, dtype=torch.float32) + stride / 2).unsqueeze(0)
        self.side = self.cood.size(1)

    def forward(self, normed_density, unnormed_density, points):
        loss = torch.zeros(1)
        wd = 0.0
        grads = []
        for idx, im_points in enumerate(points):
            x = im_points[:, 0].unsqueeze_(1)     # (#gt, 1)
            y = im_points[:, 1].unsqueeze_(1)
            x_dis = -2 * x @ self.cood + x * x + self.cood * self.cood
            y_dis = -2 * y @ self.cood + y * y + self.cood * self.cood
            dis = (y_dis.unsqueeze(2) + x_dis.unsqueeze(1)).view(len(im_points), -1)

            source_prob = normed_density[idx][0].reshape(-1).detach()
            target_prob = torch.full((len(im_points),), 1.0 / len(im_points))
            plan, beta = sinkhorn_log(target_prob, source_prob, dis, self.reg)

            # gradient of <beta, density / count> w.r.t. the unnormalised density
            source_density = unnormed_density[idx][0].reshape(-1).detach()
            count = source_density.sum()
            im_grad = beta / count - (source_density * beta).sum() / count ** 2
            im_grad = im_grad.detach().view(1, self.side, self.side)
            grads.append((im_grad, beta))
            loss = loss + torch.sum(unnormed_density[idx] * im_grad)
            wd += torch.sum(dis * plan).item()
        return loss, wd, grads
