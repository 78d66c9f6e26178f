"""
expect: none
dynamic: dismiss
source: https://github.com/ritheshkumar95/pytorch-vqvae/issues/14

The report ("Codebook embedding does not update"): in pytorch-vqvae's straight-through
vector quantiser, `ctx.needs_input_grad[1]` (the codebook input of the custom Function) is
always False during training, so the codebook branch of its backward never runs. That is by
design: `VQEmbedding.straight_through` passes `self.embedding.weight.detach()` into the
Function, which copies decoder gradients straight to the encoder output, and the codebook
is trained separately by the codebook loss on `torch.index_select(self.embedding.weight, 0,
indices)`. This program rebuilds the VQ-VAE training step on small vectors; the asserts
show the Function indeed never asks for a codebook gradient, yet encoder, decoder and
codebook all receive gradients and move, and the loss falls.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.autograd import Function

torch.manual_seed(0)
CODEBOOK_ASKED = []


class VectorQuantizationStraightThrough(Function):
    @staticmethod
    def forward(ctx, inputs, codebook):
        indices = torch.cdist(inputs, codebook).argmin(dim=1)
        ctx.save_for_backward(indices, codebook)
        ctx.mark_non_differentiable(indices)
        return codebook.index_select(0, indices), indices

    @staticmethod
    def backward(ctx, grad_output, grad_indices):
        grad_inputs = grad_codebook = None
        CODEBOOK_ASKED.append(ctx.needs_input_grad[1])
        if ctx.needs_input_grad[0]:
            grad_inputs = grad_output.clone()               # straight-through estimator
        if ctx.needs_input_grad[1]:
            indices, codebook = ctx.saved_tensors
            grad_codebook = torch.zeros_like(codebook).index_add_(0, indices, grad_output)
        return grad_inputs, grad_codebook


vq_st = VectorQuantizationStraightThrough.apply


class VQEmbedding(nn.Module):
    def __init__(self, K, D):
        super().__init__()
        self.embedding = nn.Embedding(K, D)
        self.embedding.weight.data.uniform_(-1.0 / K, 1.0 / K)

    def straight_through(self, z_e_x):
        z_q_x, indices = vq_st(z_e_x, self.embedding.weight.detach())
        z_q_x_bar = torch.index_select(self.embedding.weight, dim=0, index=indices)
        return z_q_x, z_q_x_bar


class VQVAE(nn.Module):
    def __init__(self, dim=12, D=4, K=16):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(dim, 32), nn.ReLU(), nn.Linear(32, D))
        self.codebook = VQEmbedding(K, D)
        self.decoder = nn.Sequential(nn.Linear(D, 32), nn.ReLU(), nn.Linear(32, dim))

    def forward(self, x):
        z_e_x = self.encoder(x)
        z_q_x_st, z_q_x = self.codebook.straight_through(z_e_x)
        return self.decoder(z_q_x_st), z_e_x, z_q_x


if __name__ == "__main__":
    model = VQVAE()
    init = {n: p.detach().clone() for n, p in model.named_parameters()}
    opt = torch.optim.Adam(model.parameters(), lr=5e-3)
    centers = torch.randn(6, 12) * 2
    losses = []
    for _ in range(150):
        x = centers[torch.randint(0, 6, (64,))] + 0.1 * torch.randn(64, 12)
        x_tilde, z_e_x, z_q_x = model(x)
        loss_recons = F.mse_loss(x_tilde, x)
        loss_vq = F.mse_loss(z_q_x, z_e_x.detach())
        loss_commit = F.mse_loss(z_e_x, z_q_x.detach())
        loss = loss_recons + loss_vq + 0.25 * loss_commit
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss_recons.item())
    assert not any(CODEBOOK_ASKED)
    for n, p in model.named_parameters():
        assert p.grad is not None and not torch.equal(p.detach(), init[n]), n
    assert sum(losses[-20:]) < 0.5 * sum(losses[:20])
    print(f"OK: codebook trained via its own loss; recon {losses[0]:.3f} -> {losses[-1]:.3f}")
