"""
expect: none
dynamic: dismiss
source: https://github.com/yhhhli/BRECQ/issues/12

The question: why does BRECQ's `block_reconstruction` call `err.backward(retain_graph=True)`
inside its optimisation loop? The code (quant/block_recon.py) caches the block's FP inputs
and outputs once, then for every iteration samples a mini-batch from the cache, runs the
quantised block with AdaRound soft-rounding, computes reconstruction + rounding loss through
a LossFunction object that only keeps a Python counter, and steps Adam on the rounding
parameters. The flag is unnecessary but harmless: nothing carries a graph from one
iteration to the next, so every backward sees a fresh graph of the same size. The
quantiser is initialised from `module.org_weight.data`, which is fine because the rounding
variable alpha is the trained leaf. This program rebuilds that loop for a small two-layer
block; the asserts show the graph size stays constant, the AdaRound variables get gradients
and move, and the learned hard rounding reconstructs better than round-to-nearest.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def graph_size(t):
    seen, stack = set(), [t.grad_fn]
    while stack:
        fn = stack.pop()
        if fn is None or fn in seen:
            continue
        seen.add(fn)
        stack.extend(nxt for nxt, _ in fn.next_functions)
    return len(seen)


class AdaRoundQuantizer(nn.Module):
    gamma, zeta = -0.1, 1.1

    def __init__(self, weight_tensor, n_bits=4):
        super().__init__()
        self.delta = (weight_tensor.abs().max() / (2 ** (n_bits - 1) - 1)).item()
        rest = weight_tensor / self.delta - torch.floor(weight_tensor / self.delta)
        init = -torch.log((self.zeta - self.gamma) / (rest - self.gamma) - 1)
        self.alpha = nn.Parameter(init.clone())
        self.w_floor = torch.floor(weight_tensor / self.delta)

    def soft_targets(self):
        return torch.clamp(torch.sigmoid(self.alpha) * (self.zeta - self.gamma) + self.gamma, 0, 1)

    def forward(self):
        return (self.w_floor + self.soft_targets()) * self.delta


class QuantLinear(nn.Module):
    def __init__(self, fp: nn.Linear):
        super().__init__()
        self.register_buffer("org_weight", fp.weight.detach().clone())
        self.bias = fp.bias.detach().clone()
        self.weight_quantizer = AdaRoundQuantizer(weight_tensor=self.org_weight.data)

    def forward(self, x):
        return F.linear(x, self.weight_quantizer(), self.bias)


class LossFunction:
    def __init__(self, block, weight=0.01, b=10.0):
        self.block, self.weight, self.b, self.count = block, weight, b, 0

    def __call__(self, pred, tgt):
        self.count += 1
        rec_loss = (pred - tgt).pow(2).sum(1).mean()
        round_loss = 0
        for m in self.block.modules():
            if isinstance(m, QuantLinear):
                h = m.weight_quantizer.soft_targets()
                round_loss += self.weight * (1 - ((h - 0.5).abs() * 2).pow(self.b)).sum()
        return rec_loss + round_loss


def block_reconstruction(fp_block, cali_data, iters=150, batch_size=32):
    qblock = nn.Sequential(QuantLinear(fp_block[0]), nn.ReLU(), QuantLinear(fp_block[2]))
    with torch.no_grad():
        cached_inps, cached_outs = cali_data, fp_block(cali_data)
    opt_params = [m.weight_quantizer.alpha for m in qblock.modules() if isinstance(m, QuantLinear)]
    optimizer = torch.optim.Adam(opt_params, lr=1e-2)
    loss_func, sizes = LossFunction(qblock), []
    for _ in range(iters):
        idx = torch.randperm(cached_inps.size(0))[:batch_size]
        out_quant = qblock(cached_inps[idx])
        err = loss_func(out_quant, cached_outs[idx])
        sizes.append(graph_size(err))
        optimizer.zero_grad()
        err.backward(retain_graph=True)
        optimizer.step()
    return qblock, opt_params, sizes


def hard_error(fp_block, qblock, data, nearest):
    layers = []
    for q in (qblock[0], qblock[2]):
        wq = q.weight_quantizer
        if nearest:
            w = torch.round(q.org_weight / wq.delta) * wq.delta
        else:
            w = (wq.w_floor + (wq.alpha >= 0).float()) * wq.delta
        layers.append((w, q.bias))
    with torch.no_grad():
        h = F.relu(F.linear(data, *layers[0]))
        return (F.linear(h, *layers[1]) - fp_block(data)).pow(2).sum(1).mean().item()


if __name__ == "__main__":
    fp = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 8))
    data = torch.randn(256, 16)
    qblock, alphas, sizes = block_reconstruction(fp, data)
    assert len(set(sizes)) == 1, sizes                 # no graph carried across iterations
    assert all(a.grad is not None and a.grad.abs().sum() > 0 for a in alphas)
    init_alpha = AdaRoundQuantizer(fp[0].weight.detach()).alpha
    assert not torch.allclose(alphas[0].detach(), init_alpha)
    learned, nearest = hard_error(fp, qblock, data, False), hard_error(fp, qblock, data, True)
    assert learned < nearest, (learned, nearest)
    print(f"OK: graph size fixed at {sizes[0]}; learned rounding error {learned:.4f} < nearest {nearest:.4f}")
