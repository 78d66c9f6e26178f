"""
expect: GL004 34
dynamic: confirm
source: kinds check 53, kind 1

A temperature-scaled classifier caches inv_temp = exp(-log_temp) once in
__init__; forward reads the cached tensor, so every step backpropagates through
the same stale graph (needs retain_graph=True) and inv_temp never follows
log_temp after the optimizer moves it.
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
        self.inv_temp = torch.exp(-self.log_temp)

    def forward(self, x):
        return self.proj(x) * self.inv_temp


def train(model, x, y, steps):
    opt = torch.optim.SGD(model.parameters(), lr=0.5)
    for _ in range(steps):
        opt.zero_grad()
        loss = F.cross_entropy(model(x), y)
        loss.backward(retain_graph=True)
        opt.step()


def main():
    x, y = torch.randn(64, 8), torch.randint(0, 3, (64,))
    model = TempScaledClassifier(8, 3)
    lt0, inv0 = model.log_temp.detach().clone(), model.inv_temp.detach().clone()
    train(model, x, y, 5)
    assert not torch.allclose(model.log_temp.detach(), lt0)
    assert torch.allclose(model.inv_temp.detach(), inv0)  # stale cache
    assert not torch.allclose(model.inv_temp.detach(), torch.exp(-model.log_temp.detach()))
    # without retain_graph the second iteration's backward raises
    m2 = TempScaledClassifier(8, 3)
    opt = torch.optim.SGD(m2.parameters(), lr=0.5)
    try:
        for _ in range(2):
            opt.zero_grad()
            F.cross_entropy(m2(x), y).backward()
            opt.step()
        raise AssertionError("expected second backward to fail")
    except RuntimeError as e:
        assert "second time" in str(e), e
    print("ok: stale cached graph confirmed")


if __name__ == "__main__":
    main()
