import torch
import torch.nn.functional as F


def uniform_ce(logits, weights):
    """Outlier-exposure loss: push background samples towards a uniform prediction,
    each background sample weighted by its learned resampling weight."""
    per_sample = -F.log_softmax(logits, dim=1).mean(dim=1)
    return (weights * per_sample).mean()


def train_epoch_resample(loader, bg_loader, weight_params, model, optimizer, optimizer_w):
    model.train()
    history = []
    for (inputs, targets), (indices, bg_inputs) in zip(loader, bg_loader):
        n = inputs.size(0)
        w = F.softplus(weight_params)
        scale = (w ** 0.5).mean() / (w.mean() ** 0.5)
        weights = scale * (w[indices] / w.mean()) ** 0.5

        outputs = model(torch.cat([inputs, bg_inputs]))
        loss_ood = uniform_ce(outputs[n:], weights)
        loss = F.cross_entropy(outputs[:n], targets) + loss_ood
        loss_w = -loss_ood

        optimizer.zero_grad()
        loss.backward(retain_graph=True)
        optimizer.step()
        optimizer_w.zero_grad()
        loss_w.backward()
        optimizer_w.step()
        history.append(loss.item())
    return history
