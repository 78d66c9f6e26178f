import torch


def as_tensor(data, dtype=None):
    """Backend conversion used by the network code for inputs and variables."""
    if isinstance(data, torch.Tensor):
        if dtype is None or data.dtype == dtype:
            return data
        return data.type(dtype=dtype)
    return torch.as_tensor(data, dtype=dtype)
