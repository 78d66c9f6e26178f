"""MeLU-style meta-learned user preference estimator for cold-start recommendation."""
import copy
from collections import OrderedDict

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call


class UserPreferenceEstimator(nn.Module):
    def __init__(self, item_dim=6, user_dim=4, hidden=16):
        super().__init__()
        self.item_emb = nn.Linear(item_dim, 8)
        self.user_emb = nn.Linear(user_dim, 8)
        self.fc1 = nn.Linear(16, hidden)
        self.fc2 = nn.Linear(hidden, hidden)
        self.linear_out = nn.Linear(hidden, 1)

    def forward(self, x):
        item_x, user_x = x
        h = torch.cat([self.item_emb(item_x), self.user_emb(user_x)], dim=1)
        h = F.relu(self.fc1(h))
        h = F.relu(self.fc2(h))
        return self.linear_out(h)


class MeLU(nn.Module):
    def __init__(self, local_lr=0.05, lr=1e-2):
        super().__init__()
        self.model = UserPreferenceEstimator()
        self.local_lr = local_lr
        self.store_parameters()
        self.meta_optim = torch.optim.Adam(self.model.parameters(), lr=lr)
        self.local_update_target_weight_name = ["fc1.weight", "fc1.bias", "fc2.weight",
                                                "fc2.bias", "linear_out.weight", "linear_out.bias"]

    def store_parameters(self):
        self.keep_weight = copy.deepcopy(self.model.state_dict())
        self.weight_name = list(self.keep_weight.keys())
        self.weight_len = len(self.keep_weight)
        self.fast_weights = OrderedDict()

    def forward(self, support_set_x, support_set_y, query_set_x, num_local_update):
        for idx in range(num_local_update):
            if idx > 0:
                self.model.load_state_dict(self.fast_weights)
            weight_for_local_update = list(self.model.state_dict().values())
            support_set_y_pred = self.model(support_set_x)
            loss = F.mse_loss(support_set_y_pred, support_set_y.view(-1, 1))
            self.model.zero_grad()
            grad = torch.autograd.grad(loss, self.model.parameters(), create_graph=True)
            # local update
            for i in range(self.weight_len):
                if self.weight_name[i] in self.local_update_target_weight_name:
                    self.fast_weights[self.weight_name[i]] = weight_for_local_update[i] - self.local_lr * grad[i]
                else:
                    self.fast_weights[self.weight_name[i]] = weight_for_local_update[i]
        self.model.load_state_dict(self.fast_weights)
        query_set_y_pred = self.model(query_set_x)
        self.model.load_state_dict(self.keep_weight)
        return query_set_y_pred

    def global_update(self, support_set_xs, support_set_ys, query_set_xs, query_set_ys, num_local_update):
        losses_q = []
        for i in range(len(support_set_xs)):
            query_set_y_pred = self.forward(support_set_xs[i], support_set_ys[i], query_set_xs[i], num_local_update)
            losses_q.append(F.mse_loss(query_set_y_pred, query_set_ys[i].view(-1, 1)))
        losses_q = torch.stack(losses_q).mean(0)
        self.meta_optim.zero_grad()
        losses_q.backward()
        self.meta_optim.step()
        self.store_parameters()
        return losses_q.item()


class FunctionalMeLU(MeLU):
    """Same estimator, local update kept inside the graph (fast weights are functions of
    the live parameters and are used through functional_call)."""

    def forward(self, support_set_x, support_set_y, query_set_x, num_local_update):
        params = OrderedDict(self.model.named_parameters())
        fast = params
        for _ in range(num_local_update):
            pred = functional_call(self.model, fast, (support_set_x,))
            loss = F.mse_loss(pred, support_set_y.view(-1, 1))
            grads = torch.autograd.grad(loss, list(fast.values()), create_graph=True)
            fast = OrderedDict(
                (n, w - self.local_lr * g) if n in self.local_update_target_weight_name else (n, w)
                for (n, w), g in zip(fast.items(), grads))
        return functional_call(self.model, fast, (query_set_x,))
