"""
expect: none
dynamic: dismiss
source: none, invented

A regression model with an optional auxiliary classification head (predict which quartile the target falls
in). The epoch function takes `use_aux` as a parameter; inside the for loop the auxiliary cross-entropy is
computed only under `if use_aux:` and added to the main MSE right there with `loss += aux_weight * aux_loss`.
The auxiliary term is built from the current batch on every iteration, so whenever it is added it belongs to
this iteration's graph; when use_aux is False it is simply never used. The asserts show that with use_aux the
bucket head gets gradients and everything trains, and with use_aux=False the main head still trains while
the unused bucket head gets no gradient, as intended.
"""
import torch
import torch.nn.functional as F

from nets import SmallRegressor

torch.manual_seed(0)
torch.set_num_threads(1)


def make_loader(n=320, batch=32):
    x = torch.randn(n, 12)
    y = x[:, 0] * 1.5 - x[:, 1] + 0.3 * x[:, 2] ** 2
    edges = torch.quantile(y, torch.tensor([0.25, 0.5, 0.75]))
    buckets = torch.bucketize(y, edges)
    return [(x[i:i + batch], y[i:i + batch], buckets[i:i + batch]) for i in range(0, n, batch)]


def train_epoch(model, optimizer, loader, use_aux=True, aux_weight=0.3):
    total = 0.0
    for features, target, bucket in loader:
        pred, bucket_logits = model(features)
        loss = F.mse_loss(pred, target)
        if use_aux:
            aux_loss = F.cross_entropy(bucket_logits, bucket)
            loss += aux_weight * aux_loss
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.item()
    return total / len(loader)


if __name__ == "__main__":
    loader = make_loader()

    model = SmallRegressor()
    opt = torch.optim.Adam(model.parameters(), lr=5e-3)
    first = train_epoch(model, opt, loader, use_aux=True)
    for _ in range(10):
        last = train_epoch(model, opt, loader, use_aux=True)
    assert last < first
    assert model.bucket_head.weight.grad is not None
    assert model.bucket_head.weight.grad.abs().sum() > 0

    model = SmallRegressor()
    opt = torch.optim.Adam(model.parameters(), lr=5e-3)
    w0 = model.trunk[0].weight.detach().clone()
    first = train_epoch(model, opt, loader, use_aux=False)
    for _ in range(10):
        last = train_epoch(model, opt, loader, use_aux=False)
    assert last < first
    assert not torch.equal(model.trunk[0].weight, w0)
    assert model.bucket_head.weight.grad is None
    print("aux-head regression ok: %.3f -> %.3f" % (first, last))
