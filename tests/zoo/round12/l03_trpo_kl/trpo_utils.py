"""TRPO helpers: KL to a frozen copy of the current policy and Fisher-vector products."""
import torch


def get_kl(policy, states):
    mean1, log_std1 = policy(states)
    std1 = log_std1.exp()
    mean0, log_std0, std0 = mean1.detach(), log_std1.detach(), std1.detach()
    kl = log_std1 - log_std0 + (std0.pow(2) + (mean0 - mean1).pow(2)) / (2.0 * std1.pow(2)) - 0.5
    return kl.sum(1, keepdim=True)


def fisher_vector_product(policy, states, v, damping=0.1):
    params = [p for p in policy.parameters()]
    kl = get_kl(policy, states).mean()
    grads = torch.autograd.grad(kl, params, create_graph=True)
    flat = torch.cat([g.reshape(-1) for g in grads])
    kl_v = (flat * v).sum()
    hv = torch.autograd.grad(kl_v, params)
    return torch.cat([h.reshape(-1) for h in hv]) + damping * v
