"""
expect: GL001 main.py:25
dynamic: confirm
source: none, invented

A dynamic-filter denoiser: `KernelPredictor` (nets.py) looks at the noisy batch and predicts the 3x3
kernels of the middle convolution of `Denoiser`. The training step writes the predicted kernels into
`denoiser.adaptive.weight.data` and then runs the denoiser. Because `.data =` keeps only the values, the
reconstruction loss never reaches the predictor, even though its parameters are in the same Adam optimizer
as the denoiser. The asserts show the predictor's parameters keep `grad is None` and do not change over the
steps, while the stem/out layers of the denoiser do train; `train_step_functional`, which passes the
kernels into `F.conv2d`, gives the predictor non-zero gradients and moves it.
"""
import torch
import torch.nn.functional as F

from nets import Denoiser, KernelPredictor, make_batch

torch.manual_seed(0)
torch.set_num_threads(1)


def train_step(predictor, denoiser, opt, noisy, clean):
    kernels = predictor(noisy)
    denoiser.adaptive.weight.data = kernels
    restored = denoiser(noisy)
    loss = F.mse_loss(restored, clean)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.item()


def train_step_functional(predictor, denoiser, opt, noisy, clean):
    kernels = predictor(noisy)
    restored = denoiser(noisy, kernels=kernels)
    loss = F.mse_loss(restored, clean)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.item()


def run(step_fn, steps=15):
    torch.manual_seed(0)
    predictor, denoiser = KernelPredictor(), Denoiser()
    params = list(predictor.parameters()) + list(denoiser.parameters())
    opt = torch.optim.Adam(params, lr=2e-3)
    pred0 = [p.detach().clone() for p in predictor.parameters()]
    stem0 = denoiser.stem.weight.detach().clone()
    for _ in range(steps):
        noisy, clean = make_batch()
        step_fn(predictor, denoiser, opt, noisy, clean)
    pred_grads = [p.grad for p in predictor.parameters()]
    pred_moved = any(not torch.equal(a, p.detach()) for a, p in zip(pred0, predictor.parameters()))
    stem_moved = not torch.equal(stem0, denoiser.stem.weight.detach())
    return pred_grads, pred_moved, stem_moved


if __name__ == "__main__":
    grads, moved, stem_moved = run(train_step)
    assert all(g is None for g in grads)
    assert not moved and stem_moved

    grads, moved, stem_moved = run(train_step_functional)
    assert all(g is not None for g in grads) and sum(g.abs().sum() for g in grads) > 0
    assert moved and stem_moved
    print("k02: kernel predictor trains only when kernels go through F.conv2d")
