"""
expect: GL003 trainer.py:25
dynamic: confirm
source: https://github.com/kyleliang919/C-Optim/issues/1

A small FT-Transformer (per-feature tokenizer, CLS token, one encoder layer) is fitted to a
tabular regression task by a Lightning-style loop that hands the optimizer a closure; the
optimizer is a drop-in Cautious AdamW. Its step() is decorated with @torch.no_grad() and calls the
closure inside it, so the forward pass in the training step runs with grad mode off and the loss
has no history. Backward then failed with "element 0 of tensors does not require grad", and the
closure was patched with loss.requires_grad_(True): backward now only fills the grad of that new
leaf, every model parameter keeps grad None, the optimizer skips them all and the logged loss never
moves. The asserts check that no parameter has a gradient or changes, and that the same optimizer
running the closure under torch.enable_grad() (as torch.optim does) trains the model.
"""
import torch
import torch.nn as nn

from c_adamw import CautiousAdamW
from trainer import Trainer

torch.manual_seed(0)
torch.set_num_threads(1)

N_FEAT, D = 6, 16


class FTTransformer(nn.Module):
    def __init__(self, optimizer_cls, lr=3e-3):
        super().__init__()
        self.tok_w = nn.Parameter(torch.randn(N_FEAT, D) * 0.2)
        self.tok_b = nn.Parameter(torch.zeros(N_FEAT, D))
        self.cls = nn.Parameter(torch.randn(1, 1, D) * 0.2)
        self.encoder = nn.TransformerEncoderLayer(D, nhead=2, dim_feedforward=32, dropout=0.0, batch_first=True)
        self.head = nn.Sequential(nn.LayerNorm(D), nn.ReLU(), nn.Linear(D, 1))
        self.optimizer_cls, self.lr = optimizer_cls, lr

    def forward(self, x):
        tokens = x.unsqueeze(-1) * self.tok_w + self.tok_b
        tokens = torch.cat([self.cls.expand(x.size(0), -1, -1), tokens], dim=1)
        return self.head(self.encoder(tokens)[:, 0]).squeeze(-1)

    def training_step(self, batch):
        x, y = batch
        return nn.functional.mse_loss(self(x), y)

    def configure_optimizers(self):
        return self.optimizer_cls(self.parameters(), lr=self.lr, weight_decay=1e-4)


class GradModeCautiousAdamW(CautiousAdamW):
    def step(self, closure=None):
        loss = None
        if closure is not None:
            with torch.enable_grad():
                loss = closure()
        super().step()
        return loss


x = torch.randn(256, N_FEAT)
y = x[:, 0] * x[:, 1] + torch.sin(2 * x[:, 2]) - 0.5 * x[:, 3]
batches = list(zip(x.split(32), y.split(32)))

model = FTTransformer(CautiousAdamW)
before = [p.detach().clone() for p in model.parameters()]
logged = Trainer(max_epochs=3).fit(model, batches)
assert all(p.grad is None for p in model.parameters())
assert all(torch.equal(a, b) for a, b in zip(before, model.parameters()))
assert logged[:8] == logged[-8:]  # the same batches give the same loss every epoch

torch.manual_seed(0)
model = FTTransformer(GradModeCautiousAdamW)
logged = Trainer(max_epochs=10).fit(model, batches)
assert all(p.grad is not None for p in model.parameters())
first, last = sum(logged[:8]) / 8, sum(logged[-8:]) / 8
assert last < 0.8 * first
print(f"epoch loss with grad mode restored: {first:.3f} -> {last:.3f}")
