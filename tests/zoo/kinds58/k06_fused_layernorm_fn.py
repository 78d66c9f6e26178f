"""
expect: GL005 30
dynamic: confirm
source: none, invented

A small token classifier uses a hand-written LayerNorm autograd Function to save activation
memory. forward normalizes x into xhat, saves (xhat, rstd, weight) for the analytic backward, and
then, with reuse_buffer=True (the setting the model uses), applies the affine transform in place on
xhat (xhat.mul_(weight).add_(bias)) so no second activation-sized tensor is allocated. That edits
the tensor that was just saved: backward then reads weight * xhat + bias where its formula needs
the normalized xhat. Custom Functions pack saved tensors when forward returns, so no version error
is raised and the gradients are silently wrong once weight/bias leave (1, 0). The asserts show
gradcheck failing and the input/weight gradients differing from F.layer_norm, while the
reuse_buffer=False path passes gradcheck, matches F.layer_norm and trains the classifier.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class LayerNormFn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, weight, bias, eps, reuse_buffer):
        mu = x.mean(-1, keepdim=True)
        var = x.var(-1, unbiased=False, keepdim=True)
        rstd = torch.rsqrt(var + eps)
        xhat = (x - mu) * rstd
        ctx.save_for_backward(xhat, rstd, weight)
        if reuse_buffer:
            return xhat.mul_(weight).add_(bias)
        return xhat * weight + bias

    @staticmethod
    def backward(ctx, grad_out):
        xhat, rstd, weight = ctx.saved_tensors
        n = xhat.shape[-1]
        g_hat = grad_out * weight
        grad_x = rstd * (g_hat - g_hat.mean(-1, keepdim=True)
                         - xhat * (g_hat * xhat).mean(-1, keepdim=True))
        grad_w = (grad_out * xhat).reshape(-1, n).sum(0)
        grad_b = grad_out.reshape(-1, n).sum(0)
        return grad_x, grad_w, grad_b, None, None


class FastLayerNorm(nn.Module):
    def __init__(self, dim, eps=1e-5, reuse_buffer=True):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(dim))
        self.bias = nn.Parameter(torch.zeros(dim))
        self.eps, self.reuse_buffer = eps, reuse_buffer

    def forward(self, x):
        return LayerNormFn.apply(x, self.weight, self.bias, self.eps, self.reuse_buffer)


class TokenMixerClassifier(nn.Module):
    def __init__(self, vocab=50, dim=32, seq=12, classes=3, reuse_buffer=True):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.norm1 = FastLayerNorm(dim, reuse_buffer=reuse_buffer)
        self.token_mix = nn.Linear(seq, seq)
        self.norm2 = FastLayerNorm(dim, reuse_buffer=reuse_buffer)
        self.channel_mix = nn.Sequential(nn.Linear(dim, 64), nn.GELU(), nn.Linear(64, dim))
        self.cls = nn.Linear(dim, classes)

    def forward(self, tokens):
        h = self.embed(tokens)
        h = h + self.token_mix(self.norm1(h).transpose(1, 2)).transpose(1, 2)
        h = h + self.channel_mix(self.norm2(h))
        return self.cls(h.mean(1))


def make_data(n=384, seq=12):
    tokens = torch.randint(0, 50, (n, seq))
    labels = ((tokens < 10).sum(1) > 2).long() + (tokens[:, 0] > 40).long()
    return tokens, labels


def main():
    torch.manual_seed(0)
    torch.set_num_threads(1)
    x = torch.randn(3, 4, 6, dtype=torch.double, requires_grad=True)
    w = (1 + 0.5 * torch.randn(6, dtype=torch.double)).requires_grad_()
    b = (0.3 * torch.randn(6, dtype=torch.double)).requires_grad_()

    shipped = lambda x, w, b: LayerNormFn.apply(x, w, b, 1e-5, True)
    plain = lambda x, w, b: LayerNormFn.apply(x, w, b, 1e-5, False)
    assert not torch.autograd.gradcheck(shipped, (x, w, b), raise_exception=False)
    g_ship = torch.autograd.grad(shipped(x, w, b).pow(2).sum(), (x, w))
    g_ref = torch.autograd.grad(F.layer_norm(x, (6,), w, b).pow(2).sum(), (x, w))
    assert torch.allclose(shipped(x, w, b), F.layer_norm(x, (6,), w, b))
    assert not torch.allclose(g_ship[0], g_ref[0]) and not torch.allclose(g_ship[1], g_ref[1])

    assert torch.autograd.gradcheck(plain, (x, w, b))
    g_plain = torch.autograd.grad(plain(x, w, b).pow(2).sum(), (x, w))
    assert all(torch.allclose(a, r) for a, r in zip(g_plain, g_ref))

    tokens, labels = make_data()
    model = TokenMixerClassifier(reuse_buffer=False)
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3)
    losses = []
    for _ in range(60):
        loss = F.cross_entropy(model(tokens), labels)
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    assert losses[-1] < 0.6 * losses[0], (losses[0], losses[-1])
    assert not torch.equal(model.norm1.weight.detach(), torch.ones(32))
    print("fused layernorm: ok, ce %.3f -> %.3f" % (losses[0], losses[-1]))


if __name__ == "__main__":
    main()
