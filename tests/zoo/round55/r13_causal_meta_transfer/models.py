"""Two competing causal factorisations of a pair of categorical variables, mixed by a structural parameter."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Conditional(nn.Module):
    """p(child | parent) for categorical variables, parameterised by a small MLP on the one-hot parent."""

    def __init__(self, n, hidden=16):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(n, hidden), nn.Tanh(), nn.Linear(hidden, n))
        self.n = n

    def forward(self, parent, child):
        logits = self.net(F.one_hot(parent, self.n).float())
        return F.log_softmax(logits, dim=1).gather(1, child[:, None]).squeeze(1)


class Factorisation(nn.Module):
    """log p(cause) + log p(effect | cause)."""

    def __init__(self, n):
        super().__init__()
        self.marginal = nn.Parameter(torch.zeros(n))
        self.conditional = Conditional(n)

    def forward(self, cause, effect):
        log_pc = F.log_softmax(self.marginal, dim=0)[cause]
        return log_pc + self.conditional(cause, effect)


class StructuralModel(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.model_A_B = Factorisation(n)
        self.model_B_A = Factorisation(n)
        self.w = nn.Parameter(torch.zeros(()))

    def modules_parameters(self):
        return list(self.model_A_B.parameters()) + list(self.model_B_A.parameters())

    def log_likelihoods(self, x):
        a, b = x[:, 0], x[:, 1]
        return self.model_A_B(a, b), self.model_B_A(b, a)

    def forward(self, x):
        ll_ab, ll_ba = self.log_likelihoods(x)
        return self.mix(ll_ab, ll_ba)

    def mix(self, ll_ab, ll_ba):
        stacked = torch.stack([F.logsigmoid(self.w) + ll_ab, F.logsigmoid(-self.w) + ll_ba])
        return torch.logsumexp(stacked, dim=0)
