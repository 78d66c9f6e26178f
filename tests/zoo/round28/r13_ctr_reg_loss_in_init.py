"""
expect: GL004 59, GL005 60
dynamic: confirm
source: https://github.com/shenweichen/DeepCTR-Torch/issues/90

In a CTR-prediction library the L2 penalty on the embedding tables was built
once, inside __init__ via add_regularization_loss(), and then added to every
step's loss; fit() therefore needed backward(retain_graph=True). Users got
"modified by an inplace operation" once the optimizer had updated the
weights, and a commenter traced it to the penalty graph built at init. Here
CTRModel does the same: the first step runs, the second backward walks the
init-time graph after optimizer.step() changed the saved weights. The asserts
show the error, and that computing the penalty inside fit() trains.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

N_USERS, N_ITEMS, D = 50, 80, 8


class CTRModel(nn.Module):
    def __init__(self, l2_reg_embedding=1e-3, reg_in_init=True):
        super().__init__()
        self.user_emb = nn.Embedding(N_USERS, D)
        self.item_emb = nn.Embedding(N_ITEMS, D)
        self.dnn = nn.Sequential(nn.Linear(2 * D, 16), nn.ReLU(), nn.Linear(16, 1))
        self.l2_reg_embedding = l2_reg_embedding
        self.reg_in_init = reg_in_init
        self.reg_loss = torch.zeros(())
        if reg_in_init:
            self.add_regularization_loss(self.embedding_params(), l2_reg_embedding)

    def embedding_params(self):
        return [self.user_emb.weight, self.item_emb.weight]

    def add_regularization_loss(self, weights, weight_decay):
        reg = sum(torch.norm(w, p=2) for w in weights)
        self.reg_loss = self.reg_loss + weight_decay * reg

    def forward(self, users, items):
        x = torch.cat([self.user_emb(users), self.item_emb(items)], dim=1)
        return torch.sigmoid(self.dnn(x)).squeeze(1)

    def fit(self, users, items, clicks, steps=3, lr=0.05):
        opt = torch.optim.Adagrad(self.parameters(), lr=lr)
        history = []
        for _ in range(steps):
            opt.zero_grad()
            loss = F.binary_cross_entropy(self(users, items), clicks, reduction="sum")
            if self.reg_in_init:
                total_loss = loss + self.reg_loss
            else:
                reg = sum(torch.norm(w, p=2) for w in self.embedding_params())
                total_loss = loss + self.l2_reg_embedding * reg
            total_loss.backward(retain_graph=True)
            opt.step()
            history.append(total_loss.item())
        return history


users = torch.randint(0, N_USERS, (256,))
items = torch.randint(0, N_ITEMS, (256,))
clicks = ((users + items) % 3 == 0).float()

model = CTRModel(reg_in_init=True)
try:
    model.fit(users, items, clicks)
    err = None
except RuntimeError as e:
    err = str(e)
assert err is not None and "modified by an inplace operation" in err, err

fixed = CTRModel(reg_in_init=False)
hist = fixed.fit(users, items, clicks, steps=10)
assert hist[-1] < hist[0], hist
print("init-time penalty graph: second backward fails; per-step penalty trains", hist[0], "->", hist[-1])
