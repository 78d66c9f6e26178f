"""RELAX gradient estimator for Bernoulli latents (after Grathwohl et al., 2018)."""
import torch
from torch.distributions import Bernoulli
from torch.distributions.utils import clamp_probs


def to_z(logits, u=None):
    """Logistic reparameterisation: b = H(z) is a Bernoulli(sigmoid(logits)) sample."""
    if u is None:
        u = clamp_probs(torch.rand_like(logits))
    return logits + torch.log(u) - torch.log1p(-u)


def to_b(z):
    return (z > 0).float()


def _to_z_tilde(logits, b, v):
    """Sample z ~ p(z | b, logits) with fresh noise v."""
    theta = torch.sigmoid(logits)
    v_prime = b * (v * theta + (1 - theta)) + (1 - b) * v * (1 - theta)
    v_prime = clamp_probs(v_prime)
    return logits + torch.log(v_prime) - torch.log1p(-v_prime)


def _reattach_z_to_new_logits(logits, z):
    return z.detach() + logits - logits.detach()


def relax(fb, b, logits, z, c, v):
    """Return g, an unbiased estimate of d E[f(b)] / d logits, differentiable w.r.t. c."""
    fb = fb.detach()
    b = b.detach()
    # we do not backpropagate past "logits" into the model here: work on a detached
    # copy and hand the estimate back to the caller, who pushes it into the model
    logits = logits.detach().requires_grad_(True)
    z = _reattach_z_to_new_logits(logits, z)
    z_tilde = _to_z_tilde(logits, b, v)
    c_z = c(z)
    c_z_tilde = c(z_tilde)
    diff = fb - c_z_tilde
    log_pb = Bernoulli(logits=logits).log_prob(b)
    dlog_pb, = torch.autograd.grad([log_pb], [logits], grad_outputs=torch.ones_like(log_pb))
    dc_z, = torch.autograd.grad([c_z], [logits], create_graph=True, retain_graph=True,
                                grad_outputs=torch.ones_like(c_z))
    dc_z_tilde, = torch.autograd.grad([c_z_tilde], [logits], create_graph=True, retain_graph=True,
                                      grad_outputs=torch.ones_like(c_z_tilde))
    g = diff * dlog_pb + dc_z - dc_z_tilde
    assert g.size() == logits.size()
    return g
