"""
expect: GL005 52
dynamic: confirm
source: kinds check 19, kind 3 (written for this check)

`ExtraGrad` is the project's extragradient optimizer: `lookahead()` saves the
weights and jumps to the extrapolated point in place under `torch.no_grad()`,
`step()` restores and applies the update. `GanTrainer.generator_turn` calls
`lookahead()` between two backward calls on the same generator loss graph, so the
second backward reads generator weights that were edited in place and raises. The
asserts check the error and that re-running the generator at the lookahead point works.
"""
import torch
import torch.nn as nn
from torch.optim import Optimizer


class ExtraGrad(Optimizer):
    def __init__(self, params, lr=1e-3):
        super().__init__(params, {"lr": lr})

    @torch.no_grad()
    def lookahead(self):
        for group in self.param_groups:
            for p in (q for q in group["params"] if q.grad is not None):
                self.state[p]["anchor"] = p.detach().clone()
                p.add_(p.grad, alpha=-group["lr"])

    @torch.no_grad()
    def step(self, closure=None):
        for group in self.param_groups:
            for p in (q for q in group["params"] if q.grad is not None):
                p.copy_(self.state[p].pop("anchor", p)).add_(p.grad, alpha=-group["lr"])


class GanTrainer:
    def __init__(self, z_dim=8, x_dim=2):
        self.z_dim = z_dim
        self.G = nn.Sequential(nn.Linear(z_dim, 32), nn.LeakyReLU(0.2), nn.Linear(32, x_dim))
        self.D = nn.Sequential(nn.Linear(x_dim, 32), nn.LeakyReLU(0.2), nn.Linear(32, 1))
        self.g_opt = ExtraGrad(self.G.parameters(), lr=1e-2)
        self.bce = nn.BCEWithLogitsLoss()

    def g_loss(self, z):
        logits = self.D(self.G(z))
        return self.bce(logits, torch.ones_like(logits))

    def generator_turn(self, z):
        self.g_opt.zero_grad()
        loss = self.g_loss(z)
        loss.backward(retain_graph=True)
        self.g_opt.lookahead()
        self.g_opt.zero_grad()
        loss.backward()
        self.g_opt.step()
        return loss.item()

    def generator_turn_fixed(self, z):
        self.g_opt.zero_grad()
        self.g_loss(z).backward()
        self.g_opt.lookahead()
        self.g_opt.zero_grad()
        loss = self.g_loss(z)
        loss.backward()
        self.g_opt.step()
        return loss.item()


if __name__ == "__main__":
    torch.manual_seed(7)
    z = torch.randn(64, 8)
    trainer = GanTrainer()
    try:
        trainer.generator_turn(z)
        raise AssertionError("expected the stale-graph error")
    except RuntimeError as err:
        assert "modified by an inplace operation" in str(err), err
    trainer = GanTrainer()
    w0 = trainer.G[2].weight.clone()
    trainer.generator_turn_fixed(z)
    assert not torch.equal(w0, trainer.G[2].weight)
    print("k3_bug_gan: lookahead() between two backwards raises")
