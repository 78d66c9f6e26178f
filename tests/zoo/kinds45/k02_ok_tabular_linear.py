"""
expect: none
dynamic: dismiss
source: kinds check 45, kind 1

A tabular click model: the row embeddings are bound to a second name `rows`
that feeds the scoring linear layer, and the original name is then rescaled by
a learned gain for an auxiliary norm penalty. The rescale is written out of
place, so it builds a new tensor and the linear layer's saved input is intact.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)


class ClickModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Linear(12, 32)
        self.score = nn.Linear(32, 1)
        self.gain = nn.Parameter(torch.ones(32))

    def forward(self, x):
        embeds = torch.tanh(self.embed(x))
        rows = embeds
        logit = self.score(rows).squeeze(1)
        # rescale for the norm penalty (out of place)
        embeds = embeds * self.gain
        penalty = embeds.pow(2).mean()
        return logit, penalty


model = ClickModel()
x = torch.randn(64, 12)
y = torch.randint(0, 2, (64,)).float()
logit, penalty = model(x)
loss = nn.functional.binary_cross_entropy_with_logits(logit, y) + 0.01 * penalty
loss.backward()

for name, p in model.named_parameters():
    assert p.grad is not None and p.grad.abs().sum() > 0, name
print("backward ok; all parameters have gradients")
