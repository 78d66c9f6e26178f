"""
expect: none
dynamic: dismiss
source: none, invented

Remote sensing on the edge: an on-board cloud/clear classifier for multispectral satellite pixels is
trained quantisation-aware so that it can run in int4 on the satellite. `QuantLinear` (quant.py) owns its own
`weight` nn.Parameter (initialised in `reset_parameters`) and reads it inside a detached expression,
`(self._fake_quant(self.weight) - self.weight).detach()`, but it adds that correction to `self.weight`
itself: the straight-through estimator. The forward value uses the quantised weights while the gradient
flows to the full-precision weight unchanged. This is correct. The asserts show the forward equals
a linear layer with the quantised weights, that the weight gradient equals the gradient with respect to
the quantised weights, and that training with the optimizer (built over the whole model) raises accuracy.
"""
import torch
import torch.nn.functional as F

from quant import CloudClassifier


def pixel_batch(n=512, bands=10, seed=0):
    g = torch.Generator().manual_seed(seed)
    x = torch.rand(n, bands, generator=g)
    brightness = x[:, :4].mean(-1)
    thermal = x[:, 8:].mean(-1)
    y = (brightness - thermal > 0.0).long()
    return x, y


def main():
    torch.manual_seed(0)
    model = CloudClassifier()
    x, y = pixel_batch()

    layer = model.l1
    wq = layer._fake_quant(layer.weight.detach()).requires_grad_(True)
    out_ref = F.linear(x, wq, layer.bias.detach())
    assert torch.allclose(layer(x), out_ref, atol=1e-6)
    layer(x).pow(2).sum().backward()
    out_ref.pow(2).sum().backward()
    assert torch.allclose(layer.weight.grad, wq.grad, atol=1e-4)
    assert layer.weight.grad.abs().sum() > 0
    model.zero_grad()

    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    w0 = model.l1.weight.detach().clone()
    acc0 = (model(x).argmax(-1) == y).float().mean().item()
    for _ in range(200):
        optimizer.zero_grad()
        F.cross_entropy(model(x), y).backward()
        optimizer.step()
    acc = (model(x).argmax(-1) == y).float().mean().item()
    assert (model.l1.weight.detach() - w0).abs().max() > 1e-2
    assert acc > 0.85 and acc > acc0, (acc0, acc)
    print(f"STE quantised classifier trains: accuracy {acc0:.2f} -> {acc:.2f}")


if __name__ == "__main__":
    main()
