"""
expect: none
dynamic: dismiss
source: kinds check 23, kind 3 (written for this check)

A text classifier stacks two bottleneck adapters over a token embedding. The adapter class has a detach_input flag
whose True arm would .detach() its input and starve the embedding (the adapters have no residual path), but both
constructions in this file take the False arm (one by default, one explicitly). The asserts show both adapters'
flags are off and that the embedding, both adapters and the classifier all get nonzero gradients.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class BottleneckAdapter(nn.Module):
    def __init__(self, dim, bottleneck=8, detach_input=False):
        super().__init__()
        self.down = nn.Linear(dim, bottleneck)
        self.up = nn.Linear(bottleneck, dim)
        self.detach_input = detach_input

    def forward(self, x):
        if self.detach_input:
            x = x.detach()  # used when probing a frozen encoder
        return self.up(F.gelu(self.down(x)))


class AdapterClassifier(nn.Module):
    def __init__(self, vocab, dim, n_labels):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim, padding_idx=0)
        self.adapters = nn.ModuleList([
            BottleneckAdapter(dim),
            BottleneckAdapter(dim, bottleneck=4, detach_input=False),
        ])
        self.cls = nn.Linear(dim, n_labels)

    def forward(self, tokens):
        h = self.embed(tokens)
        for adapter in self.adapters:
            h = adapter(h)
        mask = (tokens != 0).unsqueeze(-1).float()
        pooled = (h * mask).sum(1) / mask.sum(1).clamp(min=1.0)
        return self.cls(pooled)


torch.manual_seed(6)
model = AdapterClassifier(vocab=100, dim=16, n_labels=3)
opt = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=0.01)
assert not any(a.detach_input for a in model.adapters)

for _ in range(3):
    tokens = torch.randint(1, 100, (10, 12))
    tokens[:, 9:] = 0
    loss = F.cross_entropy(model(tokens), torch.randint(0, 3, (10,)))
    opt.zero_grad()
    loss.backward()
    for name, p in model.named_parameters():
        assert p.grad is not None and p.grad.abs().sum() > 0, name
    opt.step()
print("ok: every adapter is built with detach_input off; embedding trains")
