"""Generic optimisation loop shared by the perception models."""
import torch


def fit(model, batches, lr=1e-2):
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    history = []
    for batch in batches:
        opt.zero_grad()
        loss = model.compute_loss(batch)
        loss.backward()
        opt.step()
        history.append(loss.item())
    return history
