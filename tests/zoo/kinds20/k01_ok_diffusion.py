"""
expect: none
dynamic: dismiss
source: kinds check 20, kind 1 (written for this check)

A diffusion denoiser mixes channels with `latent.transpose(1, 2).contiguous() @ mix`;
`.contiguous()` of the transposed tensor is a real copy, so the matmul saves
the copy, not a view of `latent`. Editing `latent` in place afterwards is safe:
the asserts show backward runs and the gradient equals one computed from the
unedited values.
"""
import torch

torch.manual_seed(1)


def denoise_step(latent_in, mix, t_emb):
    latent = latent_in * 1.0                                 # non-leaf working copy
    tokens = latent.transpose(1, 2).contiguous() @ mix       # saves a copy
    latent.add_(t_emb)                                       # edit the original
    return tokens.pow(2).mean() + latent.mean()


x0 = torch.randn(3, 8, 20)
mix = torch.randn(8, 8, requires_grad=True)
t_emb = torch.randn(3, 8, 1)
loss = denoise_step(x0, mix, t_emb)
loss.backward()

ref_mix = mix.detach().clone().requires_grad_()
ref = (x0.transpose(1, 2) @ ref_mix).pow(2).mean()
(g_ref,) = torch.autograd.grad(ref, ref_mix)
assert mix.grad is not None
assert torch.allclose(mix.grad, g_ref, atol=1e-6)
print("ok: the matmul saved a copy; the in-place edit is harmless")
