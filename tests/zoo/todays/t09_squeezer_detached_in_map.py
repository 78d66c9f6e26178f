"""expect: GL001 28
dynamic: confirm
source: https://github.com/lucidrains/compressive-transformer-pytorch/blob/master/compressive_transformer_pytorch/compressive_transformer_pytorch.py

A sequence classifier also learns a small strided-conv "squeezer" that compresses its
hidden states; an auxiliary loss asks the compressed summary to match the full one. To
keep the auxiliary loss from pulling on the encoder, the author detaches several tensors
in one line with map(torch.detach, (...)), but the tuple also contains the squeezer's own
output. The squeezer is trained by nothing else, so it never gets a gradient, while the
classification loss keeps backward() and the optimizer step running normally.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class SqueezingClassifier(nn.Module):
    def __init__(self, dim=8, n_cls=3):
        super().__init__()
        self.encoder = nn.Linear(dim, dim)
        self.readout = nn.Linear(dim, n_cls)
        self.squeezer = nn.Conv1d(dim, dim, kernel_size=2, stride=2)

    def forward(self, seq, labels):
        hidden = torch.tanh(self.encoder(seq))
        logits = self.readout(hidden.mean(dim=1))
        summary = self.squeezer(hidden.transpose(1, 2)).transpose(1, 2)
        hidden_ref, summary = map(torch.detach, (hidden, summary))
        aux = F.mse_loss(summary.mean(dim=1), hidden_ref.mean(dim=1))
        return F.cross_entropy(logits, labels) + 0.1 * aux


torch.manual_seed(4)
clf = SqueezingClassifier()
opt = torch.optim.Adam(clf.parameters(), lr=1e-2)
seq, labels = torch.randn(10, 6, 8), torch.randint(0, 3, (10,))
squeezer_start = clf.squeezer.weight.detach().clone()
for _ in range(3):
    opt.zero_grad()
    loss = clf(seq, labels)
    loss.backward()
    opt.step()

print("loss", loss.item())
assert clf.encoder.weight.grad is not None
assert clf.squeezer.weight.grad is None and clf.squeezer.bias.grad is None
assert torch.equal(squeezer_start, clf.squeezer.weight)
print("squeezer never trained: its output was in the detach map")
