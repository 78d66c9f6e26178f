"""
expect: none
dynamic: dismiss
source: kinds check 53, kind 1

Same temperature-scaled classifier, but inv_temp = exp(-log_temp) is recomputed
inside forward on every call, so each step builds a fresh graph and the scale
tracks log_temp (retain_graph=True is merely redundant here).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class TempScaledClassifier(nn.Module):
    def __init__(self, d_in, n_cls):
        super().__init__()
        self.proj = nn.Linear(d_in, n_cls)
        self.log_temp = nn.Parameter(torch.zeros(1))

    def forward(self, x):
        self.inv_temp = torch.exp(-self.log_temp)
        return self.proj(x) * self.inv_temp


def main():
    x, y = torch.randn(64, 8), torch.randint(0, 3, (64,))
    model = TempScaledClassifier(8, 3)
    opt = torch.optim.SGD(model.parameters(), lr=0.5)
    lt0 = model.log_temp.detach().clone()
    for _ in range(5):
        opt.zero_grad()
        loss = F.cross_entropy(model(x), y)
        loss.backward(retain_graph=True)
        opt.step()
    assert not torch.allclose(model.log_temp.detach(), lt0)
    model(x)
    assert torch.allclose(model.inv_temp.detach(), torch.exp(-model.log_temp.detach()))
    # plain backward also works every step
    opt.zero_grad(); F.cross_entropy(model(x), y).backward(); opt.step()
    opt.zero_grad(); F.cross_entropy(model(x), y).backward(); opt.step()
    print("ok: fresh graph per call")


if __name__ == "__main__":
    main()
