"""expect: GL002 24
dynamic: confirm
source: https://github.com/s6007541/PSKD-ML/blob/afb4d063a8ddd1fec212ce014ab5d79749870c1a/loss/dml_loss.py

A network with an auxiliary (mid-depth) classifier and a final classifier is trained with cross
entropy on both heads plus a mutual-learning term: a loss module computes the symmetric KL
divergence between each pair of heads. The module collects the per-pair KL values in a list
and returns torch.tensor(list).mean(), which copies the numbers into a new leaf without
autograd history. Cross entropy still trains the network, so nothing fails, but the mutual KL
term adds no gradient at all: the parameters receive exactly the cross-entropy gradients.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class SymmetricKL(nn.Module):
    def forward(self, logits_a, logits_b):
        pair_terms = []
        for a, b in zip(logits_a, logits_b):
            a_to_b = F.kl_div(F.log_softmax(a, dim=1), F.softmax(b, dim=1), reduction="batchmean")
            b_to_a = F.kl_div(F.log_softmax(b, dim=1), F.softmax(a, dim=1), reduction="batchmean")
            pair_terms.append(a_to_b + b_to_a)
        return torch.tensor(pair_terms).mean()


class TwoExitNet(nn.Module):
    def __init__(self, n_in=12, n_cls=5):
        super().__init__()
        self.stem = nn.Sequential(nn.Linear(n_in, 32), nn.ReLU())
        self.mid_head = nn.Linear(32, n_cls)
        self.body = nn.Sequential(nn.Linear(32, 32), nn.ReLU())
        self.final_head = nn.Linear(32, n_cls)

    def forward(self, x):
        h = self.stem(x)
        return self.mid_head(h), self.final_head(self.body(h))


torch.manual_seed(0)
net = TwoExitNet()
mutual = SymmetricKL()
x, y = torch.randn(16, 12), torch.randint(0, 5, (16,))

mid, final = net(x)
ce = F.cross_entropy(mid, y) + F.cross_entropy(final, y)
kl_term = mutual([mid], [final])
net.zero_grad()
(ce + kl_term).backward()
grad_full = net.mid_head.weight.grad.clone()

mid, final = net(x)
net.zero_grad()
(F.cross_entropy(mid, y) + F.cross_entropy(final, y)).backward()
grad_ce_only = net.mid_head.weight.grad.clone()

print("mutual KL:", kl_term.item(), "requires_grad:", kl_term.requires_grad)
assert kl_term.item() > 0
assert not kl_term.requires_grad
assert torch.allclose(grad_full, grad_ce_only)
print("the mutual-learning term contributes no gradient")
