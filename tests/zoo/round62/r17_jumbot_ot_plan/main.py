"""
expect: none
dynamic: dismiss
source: https://github.com/kilianFatras/JUMBOT/issues/2

JUMBOT (unbalanced minibatch optimal transport for domain adaptation) builds
a ground cost between source and target embeddings, hands
`total_cost.detach().cpu().numpy()` to a Sinkhorn solver, turns the plan
back into a tensor with torch.from_numpy, and minimises sum(pi * cost). The
issue asks whether one must backpropagate through the Sinkhorn iterations;
the author's answer is no -- by Danskin's (envelope) theorem the gradient of
the OT value with respect to the cost is the optimal plan itself, so treating
pi as a constant weight is exactly right. The numpy round trip only touches
the plan; the cost, which carries every parameter, stays on the tape. The
asserts check that the plan is a plain constant, that the domain term alone
sends gradients into the feature extractor and the classifier, that the
gradient of the domain term with respect to the cost equals pi, and that the
source loss and the transport cost both go down over training.
"""
import numpy as np
import torch
import torch.nn as nn
from jumbot import Jumbot, sinkhorn_unbalanced

torch.manual_seed(0)
torch.set_num_threads(1)

N_CLASS, DIM = 3, 5


def domains(gen, n=24):
    ys = torch.randint(0, N_CLASS, (n,), generator=gen)
    centers = torch.eye(N_CLASS, DIM) * 3.0
    xs = centers[ys] + 0.5 * torch.randn(n, DIM, generator=gen)
    yt = torch.randint(0, N_CLASS, (n,), generator=gen)
    xt = centers[yt] + 0.5 * torch.randn(n, DIM, generator=gen) + 1.0  # shifted target
    return xs, ys, xt


def main():
    gen = torch.Generator().manual_seed(4)
    model_g = nn.Sequential(nn.Linear(DIM, 8), nn.ReLU(), nn.Linear(8, 4))
    model_f = nn.Linear(4, N_CLASS)
    opt_g = torch.optim.Adam(model_g.parameters(), lr=1e-2)
    opt_f = torch.optim.Adam(model_f.parameters(), lr=1e-2)
    method = Jumbot(model_g, model_f, N_CLASS)

    # One step inspected by hand: the domain term alone reaches both networks.
    xs, ys, xt = domains(gen)
    g_xs, g_xt = model_g(xs), model_g(xt)
    cost = torch.cdist(g_xs, g_xt) ** 2
    cost.retain_grad()
    a = np.full(xs.size(0), 1.0 / xs.size(0))
    pi = torch.from_numpy(sinkhorn_unbalanced(a, a, cost.detach().numpy(), 0.5, 1.0)).float()
    assert not pi.requires_grad and pi.grad_fn is None
    torch.sum(pi * cost).backward()
    assert torch.allclose(cost.grad, pi)
    assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in model_g.parameters())
    model_g.zero_grad()

    history = []
    for _ in range(60):
        xs, ys, xt = domains(gen)
        s_loss, da_loss, pi = method.step(xs, ys, xt, opt_g, opt_f)
        history.append((s_loss, da_loss))
    first = sum(h[0] for h in history[:5]) / 5, sum(h[1] for h in history[:5]) / 5
    last = sum(h[0] for h in history[-5:]) / 5, sum(h[1] for h in history[-5:]) / 5
    assert last[0] < first[0] and last[1] < first[1]
    print(f"source loss {first[0]:.3f} -> {last[0]:.3f}, OT term {first[1]:.3f} -> {last[1]:.3f}")


if __name__ == "__main__":
    main()
