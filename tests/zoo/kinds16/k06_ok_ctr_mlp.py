"""
expect: none
dynamic: dismiss
source: kind 6

A click-through-rate tower builds its MLP from a list filled in a loop:
Linear, ReLU(inplace=True), Dropout. The in-place ReLU follows a Linear,
which saves its input, not its output, so overwriting the Linear output is
safe. The asserts show backward works in train mode, every layer gets a
gradient and the log-loss drops.
"""
import torch
import torch.nn as nn


def mlp(sizes, p_drop=0.1):
    layers = []
    for d_in, d_out in zip(sizes[:-2], sizes[1:-1]):
        layers.append(nn.Linear(d_in, d_out))
        layers.append(nn.ReLU(inplace=True))
        layers.append(nn.Dropout(p_drop))
    layers.append(nn.Linear(sizes[-2], sizes[-1]))
    return nn.Sequential(*layers)


class CTRTower(nn.Module):
    def __init__(self, n_ids=500, id_dim=8, n_dense=6):
        super().__init__()
        self.ids = nn.EmbeddingBag(n_ids, id_dim, mode="mean")
        self.mlp = mlp([id_dim + n_dense, 64, 32, 1])

    def forward(self, id_bags, offsets, dense):
        x = torch.cat([self.ids(id_bags, offsets), dense], dim=-1)
        return self.mlp(x).squeeze(-1)


if __name__ == "__main__":
    torch.manual_seed(10)
    model = CTRTower()
    opt = torch.optim.Adam(model.parameters(), lr=5e-3)
    n = 256
    id_bags = torch.randint(0, 500, (n * 3,))
    offsets = torch.arange(0, n * 3, 3)
    dense = torch.randn(n, 6)
    clicks = (dense[:, 0] + dense[:, 1] > 0).float()
    model.train()
    losses = []
    for _ in range(100):
        opt.zero_grad()
        loss = nn.functional.binary_cross_entropy_with_logits(
            model(id_bags, offsets, dense), clicks)
        loss.backward()
        for name, p in model.named_parameters():
            assert p.grad is not None, name
        opt.step()
        losses.append(loss.item())
    assert losses[-1] < 0.5 * losses[0], (losses[0], losses[-1])
    print("ok: ReLU(inplace=True) after Linear trains fine")
