"""Training loops for the 3-D pose model."""
import torch


def train_3d(model, optimizer, loader, accumulation_steps=4):
    """Proposal-net loss is accumulated over several iterations, pose loss is stepped
    every iteration (as in the upstream trainer). Gradient buffers are zeroed rather than
    freed, the torch 1.x behaviour the upstream code was written against."""
    model.train()
    accu_loss_3d = 0
    history = []
    for i, (heatmaps, targets_3d, root_target, joints_3d) in enumerate(loader):
        pred, loss_2d, loss_3d, loss_cord = model(heatmaps, targets_3d, root_target, joints_3d)
        loss_2d, loss_3d, loss_cord = loss_2d.mean(), loss_3d.mean(), loss_cord.mean()
        history.append((loss_3d.item(), loss_cord.item()))

        if loss_cord > 0:
            optimizer.zero_grad(set_to_none=False)
            (loss_2d + loss_cord).backward()
            optimizer.step()

        if accu_loss_3d > 0 and (i + 1) % accumulation_steps == 0:
            optimizer.zero_grad(set_to_none=False)
            accu_loss_3d.backward()
            optimizer.step()
            accu_loss_3d = 0.0
        else:
            accu_loss_3d += loss_3d / accumulation_steps
    return history


def train_3d_joint(model, optimizer, loader):
    """One backward per iteration over all terms, then one optimizer step."""
    model.train()
    history = []
    for heatmaps, targets_3d, root_target, joints_3d in loader:
        pred, loss_2d, loss_3d, loss_cord = model(heatmaps, targets_3d, root_target, joints_3d)
        loss = loss_2d.mean() + loss_3d.mean() + loss_cord.mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        history.append((loss_3d.item(), loss_cord.item()))
    return history
