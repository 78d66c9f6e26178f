import torch.nn.functional as F


def fit_step(model, opt, x, y):
    """One optimisation step used by the predictor to adapt to each request."""
    opt.zero_grad()
    pred = model(x)
    loss = F.mse_loss(pred, y)
    loss.requires_grad_(True)
    loss.backward()
    opt.step()
    return loss.item()
