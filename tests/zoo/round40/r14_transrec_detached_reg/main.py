"""expect: GL001 transrec.py:54, GL001 transrec.py:55, GL001 transrec.py:56
dynamic: confirm
source: https://github.com/RUCAIBox/RecBole/commit/f1f9969449656bb498ced77a3953547dd6708af6

A TransRec sequential recommender (user vector + global translation + last item, scored by L2 distance to
the next item) is trained with a BPR loss plus L2 regularisation of the user, item and popularity-bias
embeddings used in the batch. In transrec.py the three regularisation terms are computed on
`self.item_embedding(pos_items).detach()`, `self.user_embedding(user).detach()` and
`self.bias(pos_items).detach()`, so they are constants added to the loss and never shrink any embedding.
The asserts show the regularisation term does not require grad, and two models trained from the same
start with regularisation weight 1 and 0 end up bit-identical; the same terms computed without detach
change the embedding gradients and give smaller embeddings after training.
"""
import copy

import torch

from transrec import TransRec

torch.manual_seed(0)
torch.set_num_threads(1)

N_USERS, N_ITEMS, DIM, B, L = 20, 30, 8, 16, 5


def make_batch():
    user = torch.randint(1, N_USERS, (B,))
    item_seq = torch.randint(1, N_ITEMS, (B, L))
    item_seq_len = torch.randint(1, L + 1, (B,))
    pos_items = torch.randint(1, N_ITEMS, (B,))
    neg_items = torch.randint(1, N_ITEMS, (B,))
    return user, item_seq, item_seq_len, pos_items, neg_items


batches = [make_batch() for _ in range(5)]


def train(model, steps=40, intended=False):
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(steps):
        batch = batches[step % len(batches)]
        bpr, reg, reg_t = model.calculate_loss(batch)
        if intended:
            user, _, _, pos_items, _ = batch
            reg = model.reg_weight * (model.emb_loss(model.item_embedding(pos_items))
                                      + model.emb_loss(model.user_embedding(user))
                                      + model.emb_loss(model.bias(pos_items)))
        loss = bpr + reg + reg_t
        opt.zero_grad()
        loss.backward()
        opt.step()
    return model


base = TransRec(N_USERS, N_ITEMS, DIM, reg_weight=1.0)

bpr, reg, reg_t = base.calculate_loss(batches[0])
assert not reg.requires_grad and reg.item() > 0

regularised = train(copy.deepcopy(base))
unregularised = copy.deepcopy(base)
unregularised.reg_weight = 0.0
unregularised = train(unregularised)
for (name, p), q in zip(regularised.named_parameters(), unregularised.parameters()):
    assert torch.equal(p, q), name

intended = train(copy.deepcopy(base), intended=True)
def norm(m):
    return (m.user_embedding.weight.norm() + m.item_embedding.weight.norm()).item()


assert norm(intended) < norm(regularised) - 0.1, (norm(intended), norm(regularised))
print("embedding norm with detached reg %.3f, with live reg %.3f" % (norm(regularised), norm(intended)))
