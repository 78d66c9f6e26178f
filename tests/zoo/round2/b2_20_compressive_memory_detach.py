"""expect: none
source: https://github.com/jlamprou/Infini-Attention/issues/3

An Infini-attention layer carries a compressive memory (M, z) from one segment
to the next. The reporter needed `backward(retain_graph=True)` per segment;
the author's answer was to detach M and z when the memory is updated, so each
segment's backward only covers that segment and no graph is retained. The
projections still receive gradients through the current segment's read and
output.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class CompressiveMemory(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.q = nn.Linear(dim, dim)
        self.k = nn.Linear(dim, dim)
        self.v = nn.Linear(dim, dim)
        self.out = nn.Linear(dim, dim)

    def _update_memory(self, M, z, sigma_k, v):
        new_M = M + sigma_k.transpose(0, 1) @ v
        new_z = z + sigma_k.sum(0, keepdim=True).transpose(0, 1)
        return new_M.detach(), new_z.detach()

    def forward(self, seg, M, z):
        q, k, v = self.q(seg), self.k(seg), self.v(seg)
        sigma_q, sigma_k = F.elu(q) + 1, F.elu(k) + 1
        local = torch.softmax(q @ k.transpose(0, 1) / q.size(-1) ** 0.5, dim=-1) @ v
        read = (sigma_q @ M) / (sigma_q @ z).clamp_min(1e-6)
        M, z = self._update_memory(M, z, sigma_k, v)
        return self.out(read + local), M, z


if __name__ == "__main__":
    torch.manual_seed(0)
    dim = 6
    layer = CompressiveMemory(dim)
    opt = torch.optim.SGD(layer.parameters(), lr=0.01)
    M, z = torch.zeros(dim, dim), torch.ones(dim, 1)
    for seg in torch.randn(4, 5, dim):
        y, M, z = layer(seg, M, z)
        loss = y.pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    assert layer.q.weight.grad.abs().sum() > 0
    assert layer.k.weight.grad.abs().sum() > 0
    print("ok: per-segment backward without retain_graph")
