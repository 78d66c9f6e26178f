"""Training loop shared by the audio experiments."""
import torch


def build_optimizer(model, cfg):
    return torch.optim.SGD(model.parameters(), lr=cfg["lr"], momentum=0.9)


def run_training(model, loader, cfg):
    opt = build_optimizer(model, cfg)
    losses = []
    for _ in range(cfg["epochs"]):
        for wave, label in loader:
            opt.zero_grad()
            loss = model.step_loss(wave, label)
            loss.backward()
            opt.step()
            losses.append(loss.item())
    return losses
