"""Helpers shared by the learner and the meta-learner."""
import torch


def flatten_params(model):
    return torch.cat([p.reshape(-1) for p in model.parameters()], 0)


def unflatten_params(model, flat_params):
    """Copy a flat parameter vector (the meta-learner's cell state) into the learner."""
    flat_params = flat_params.squeeze()
    idx = 0
    for param in model.parameters():
        n = param.numel()
        param.data = flat_params[idx:idx + n].view_as(param).data
        idx += n


def split_params(model, flat_params):
    """Same slicing as unflatten_params, but returns views that keep their history."""
    flat_params = flat_params.squeeze()
    out, idx = {}, 0
    for name, param in model.named_parameters():
        n = param.numel()
        out[name] = flat_params[idx:idx + n].view_as(param)
        idx += n
    return out
