"""
expect: GL001 47
dynamic: confirm
source: kinds check 25, kind 2

Matrix-factorisation recommender trained with BPR. The loss helper bpr_with_l2 takes the
attached positive/negative scores plus the embeddings to regularise and returns
rank + lam * L2(embeddings). The caller passes the stacked embeddings detached ("no need to
keep the graph"), so the L2 term is built only from cut values: it never shrinks an embedding,
and the gradient is identical for lam and for 0.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

N_USERS, N_ITEMS, DIM = 30, 40, 8


def bpr_with_l2(pos_scores, neg_scores, reg_emb, lam):
    rank = -F.logsigmoid(pos_scores - neg_scores).mean()
    reg = reg_emb.pow(2).sum(-1).mean()
    return rank + lam * reg


class MF(nn.Module):
    def __init__(self):
        super().__init__()
        self.user = nn.Embedding(N_USERS, DIM)
        self.item = nn.Embedding(N_ITEMS, DIM)

    def forward(self, u, i, j):
        ue, ie, je = self.user(u), self.item(i), self.item(j)
        return (ue * ie).sum(-1), (ue * je).sum(-1), torch.cat([ue, ie, je], dim=0)


model = MF()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
lam = 1e-2


def step_loss(batch, weight):
    u, i, j = batch
    pos, neg, emb = model(u, i, j)
    return bpr_with_l2(pos, neg, emb.detach(), weight), emb.pow(2).sum(-1).mean()


for it in range(30):
    batch = (torch.randint(0, N_USERS, (64,)), torch.randint(0, N_ITEMS, (64,)),
             torch.randint(0, N_ITEMS, (64,)))
    loss, _ = step_loss(batch, lam)
    opt.zero_grad()
    loss.backward()
    opt.step()

batch = (torch.randint(0, N_USERS, (64,)), torch.randint(0, N_ITEMS, (64,)),
         torch.randint(0, N_ITEMS, (64,)))
model.zero_grad()
loss_l, reg = step_loss(batch, lam)
loss_l.backward()
g_l = [p.grad.clone() for p in model.parameters()]
model.zero_grad()
loss_0, _ = step_loss(batch, 0.0)
loss_0.backward()
g_0 = [p.grad.clone() for p in model.parameters()]
assert reg.item() > 0.0
assert all(torch.equal(a, b) for a, b in zip(g_l, g_0)), "lam changes no gradient"
print("ok: L2 term is dead, value", round(reg.item(), 4))
