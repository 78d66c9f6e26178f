"""Meta-learner in the style of Ravi & Larochelle: an LSTM-like cell whose cell state
is the learner's flat parameter vector. c_t = f_t * c_{t-1} - i_t * grad_t."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call

from learner_utils import flatten_params, unflatten_params, split_params


class MetaLSTMCell(nn.Module):
    def __init__(self, n_params, init_params):
        super().__init__()
        # gates see (grad, loss, previous gate) per coordinate, like the paper's cell
        self.WF = nn.Parameter(torch.randn(3, 1) * 0.01)
        self.WI = nn.Parameter(torch.randn(3, 1) * 0.01)
        self.bF = nn.Parameter(torch.full((1,), 4.0))    # start with "keep everything"
        self.bI = nn.Parameter(torch.full((1,), -4.0))   # and a small learning rate
        self.cI = nn.Parameter(init_params.clone().unsqueeze(1))  # learned initial weights

    def forward(self, grad, loss, c_prev, f_prev, i_prev):
        loss_col = loss.expand_as(grad)
        f = torch.sigmoid(torch.cat([grad, loss_col, f_prev], 1) @ self.WF + self.bF)
        i = torch.sigmoid(torch.cat([grad, loss_col, i_prev], 1) @ self.WI + self.bI)
        c = f * c_prev - i * grad
        return c, f, i


class MetaLearner(nn.Module):
    def __init__(self, learner):
        super().__init__()
        init = flatten_params(learner).detach()
        self.cell = MetaLSTMCell(init.numel(), init)

    def forward(self, learner, train_x, train_y, test_x, test_y, steps, keep_graph=False):
        c = self.cell.cI
        f = torch.zeros_like(c)
        i = torch.zeros_like(c)
        for _ in range(steps):
            if keep_graph:
                params = split_params(learner, c)
                out = functional_call(learner, params, (train_x,))
                loss = F.cross_entropy(out, train_y)
                grads = torch.autograd.grad(loss, list(params.values()))
            else:
                unflatten_params(learner, c)
                learner.zero_grad()
                loss = F.cross_entropy(learner(train_x), train_y)
                loss.backward()
                grads = [p.grad for p in learner.parameters()]
            grad = torch.cat([g.reshape(-1) for g in grads]).unsqueeze(1).detach()
            c, f, i = self.cell(grad, loss.detach(), c, f, i)

        if keep_graph:
            out = functional_call(learner, split_params(learner, c), (test_x,))
        else:
            unflatten_params(learner, c)
            out = learner(test_x)
        return F.cross_entropy(out, test_y)
