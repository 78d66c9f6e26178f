import torch


def heat_residual_loss(u_net, xt, kappa=0.1):
    u = u_net(xt)
    du = torch.autograd.grad(u.sum(), xt, create_graph=True)[0]
    u_x, u_t = du[:, :1], du[:, 1:]
    u_xx = torch.autograd.grad(u_x.sum(), xt, create_graph=True)[0][:, :1]
    return ((u_t - kappa * u_xx) ** 2).mean()
