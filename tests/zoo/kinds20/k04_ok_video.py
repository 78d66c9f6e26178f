"""
expect: none
dynamic: dismiss
source: kinds check 20, kind 4 (written for this check)

A video tokenizer's VQ layer keeps its codebook as
`nn.Parameter(..., requires_grad=False)`, reads the distances only for `argmin`,
and updates the codebook by EMA through `.data` before the loss's backward. No
recorded op saved the codebook, so nothing is corrupted: the asserts show the
encoder gets exactly the straight-through gradient and the codebook gets none.
"""
import torch
import torch.nn as nn

torch.manual_seed(7)


def ema_vq(z, codebook, decay=0.95):
    dist = torch.cdist(z, codebook)
    idx = dist.argmin(dim=1)
    z_q = codebook[idx]
    commit = nn.functional.mse_loss(z, z_q.detach())
    onehot = nn.functional.one_hot(idx, codebook.shape[0]).float()
    sums = onehot.t() @ z.detach()
    counts = onehot.sum(0)[:, None].clamp(min=1)
    codebook.data.mul_(decay).add_((1 - decay) * sums / counts)
    return z + (z_q - z).detach(), commit


encoder = nn.Linear(12, 6)
codebook = nn.Parameter(torch.randn(10, 6), requires_grad=False)
patches = torch.randn(30, 12)

z = encoder(patches)
z_st, commit = ema_vq(z, codebook)
loss = z_st.pow(2).mean() + 0.25 * commit
loss.backward()

z_ref = encoder(patches)
q_old = z_st.detach()                      # code vectors read before the EMA edit
st_ref = z_ref + (q_old - z_ref).detach()
ref = st_ref.pow(2).mean() + 0.25 * nn.functional.mse_loss(z_ref, q_old)
(g_ref,) = torch.autograd.grad(ref, encoder.weight)
assert codebook.grad is None
assert torch.allclose(encoder.weight.grad, g_ref, atol=1e-6)
print("ok: frozen EMA codebook, encoder gradient intact")
