"""expect: GL001 filterbank.py:19
dynamic: confirm
source: https://github.com/denfed/leaf-audio-pytorch/issues/3

A LEAF-style learnable audio frontend: a complex Gabor filterbank whose centre
frequencies and bandwidths are nn.Parameters, followed by log compression,
pooling and a small classifier. Before building the kernels, a constraint module
in filterbank.py clamps the parameters into a valid range, but it does so inside
`with torch.no_grad()`, so the kernels are built from tensors with no grad_fn.
Backward therefore stops at the constraint: the Gabor parameters never receive a
gradient and the "learnable" filterbank stays frozen at its initialisation while
only the classifier trains.
"""
import torch
import torch.nn as nn

from filterbank import GaborConv1d


class AudioFrontendClassifier(nn.Module):
    def __init__(self, n_filters=8, kernel_len=33, n_classes=3):
        super().__init__()
        self.filters = GaborConv1d(n_filters, kernel_len)
        self.pool = nn.AvgPool1d(8)
        self.head = nn.Linear(n_filters, n_classes)

    def forward(self, wav):
        energy = self.filters(wav)
        feats = torch.log1p(self.pool(energy)).mean(dim=-1)
        return self.head(feats)


def main():
    torch.manual_seed(0)
    model = AudioFrontendClassifier()
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    wav = torch.randn(6, 1, 256)
    labels = torch.randint(0, 3, (6,))
    start = model.filters.gabor_params.detach().clone()

    for _ in range(5):
        opt.zero_grad()
        loss = nn.functional.cross_entropy(model(wav), labels)
        loss.backward()
        opt.step()

    assert model.head.weight.grad is not None
    assert model.filters.gabor_params.grad is None
    assert torch.equal(model.filters.gabor_params.detach(), start)
    print("filterbank parameters never received a gradient")


if __name__ == "__main__":
    main()
