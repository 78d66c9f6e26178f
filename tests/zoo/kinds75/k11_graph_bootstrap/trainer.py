import torch


def feature_mask(x, p, gen):
    keep = (torch.rand(x.shape[1], generator=gen) > p).float()
    return x * keep


def train_bootstrap(model, x, adj_norm, epochs=40, lr=5e-3, seed=0):
    gen = torch.Generator().manual_seed(seed)
    params = [p for p in model.parameters() if p.requires_grad]
    opt = torch.optim.Adam(params, lr=lr)
    losses = []
    for _ in range(epochs):
        view_a = feature_mask(x, 0.2, gen)
        view_b = feature_mask(x, 0.3, gen)
        opt.zero_grad()
        loss = model.compute_loss(view_a, view_b, adj_norm)
        loss.backward()
        opt.step()
        model.update_target()
        losses.append(loss.item())
    return losses
