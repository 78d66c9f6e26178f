import torch
import torch.nn.functional as F


def evaluate(model, val_x, val_y):
    torch.set_grad_enabled(False)
    model.eval()
    loss = F.cross_entropy(model(val_x), val_y).item()
    model.train()
    return loss


def train_epoch(model, opt, batches, restore_grad):
    if restore_grad:
        torch.set_grad_enabled(True)
    total = 0.0
    for xb, yb in batches:
        opt.zero_grad()
        loss = F.cross_entropy(model(xb), yb)
        loss.backward()
        opt.step()
        total += loss.item()
    return total / len(batches)
