"""
expect: GL002 reconet.py:49
dynamic: confirm
source: https://github.com/ordroid/GO_RecoNet/blob/HEAD/models/GO_RecoNet.py

An MRI reconstruction model (learned k-space subsampling followed by a small refinement CNN) is trained with
a loss that adds a PSNR term to the pixel MSE, weighted by a "PSNR regulariser". The PSNR helper pulls the
MSE out of the graph as a Python number, computes the PSNR with math/NumPy-style arithmetic and wraps the
result in a fresh torch.tensor, so the PSNR term is a constant: raising its weight changes the printed loss
but not a single gradient, and neither the refinement CNN nor the learned sampling mask is ever pushed
toward higher PSNR. The asserts compare gradients for PSNR weight 0 and 5 (identical, and the PSNR term has
no grad_fn) against a differentiable PSNR written with torch.log10 (gradients change with the weight).
"""
import torch

from reconet import ReconNet, psnr_value, recon_loss, recon_loss_differentiable

torch.manual_seed(0)
torch.set_num_threads(1)

H = W = 16


def make_batch(n=4):
    images = torch.rand(n, H, W)
    spectrum = torch.fft.fft2(images)
    return torch.stack([spectrum.real, spectrum.imag], dim=-1)


def grads_for(model, kspace, loss_fn, psnr_weight):
    model.zero_grad()
    pred, _ = model(kspace)
    loss = loss_fn(pred, kspace, mse_weight=1.0, psnr_weight=psnr_weight)
    loss.backward()
    return {name: p.grad.clone() for name, p in model.named_parameters()}, loss.item()


model = ReconNet(H, W)
kspace = make_batch()

g0, loss0 = grads_for(model, kspace, recon_loss, psnr_weight=0.0)
g5, loss5 = grads_for(model, kspace, recon_loss, psnr_weight=5.0)
assert loss0 != loss5, "the PSNR term does change the reported loss value"
for name in g0:
    assert torch.equal(g0[name], g5[name]), f"PSNR weight changed the gradient of {name}"

pred, _ = model(kspace)
assert psnr_value(pred, kspace).grad_fn is None and not psnr_value(pred, kspace).requires_grad

d0, _ = grads_for(model, kspace, recon_loss_differentiable, psnr_weight=0.0)
d5, _ = grads_for(model, kspace, recon_loss_differentiable, psnr_weight=5.0)
changed = [name for name in d0 if not torch.allclose(d0[name], d5[name])]
assert "subsample.scores" in changed and any(n.startswith("refine") for n in changed), changed

opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for _ in range(5):
    opt.zero_grad()
    pred, _ = model(kspace)
    loss = recon_loss(pred, kspace, psnr_weight=5.0)
    loss.backward()
    opt.step()
print("psnr-weighted loss after a few steps:", round(loss.item(), 4))
print("differentiable PSNR moves", len(changed), "parameter tensors; the rebuilt one moves none")
