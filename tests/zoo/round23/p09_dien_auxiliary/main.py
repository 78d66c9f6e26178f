"""
expect: GL002 dien.py:54
dynamic: confirm
source: https://github.com/GitHub-HongweiZhang/prediction-flow/pull/10

prediction-flow's DIEN returned `torch.mean(torch.tensor(auxiliary_loss))` for the interest
extractor's auxiliary loss, and `fit` added `auxiliary_loss_rate * auxiliary_loss` to the
click loss. `torch.tensor` copies the per-group loss values into a fresh leaf, so the
auxiliary term is logged and added but never trains anything; the "fix auxiliary loss" PR
averaged the loss tensors themselves. The asserts show the auxiliary networks never get a
gradient, the GRU gradient is identical with the auxiliary rate at 1 and at 0, and a model
that stacks the loss tensors gives the auxiliary networks gradients.
"""
import copy
import torch
import torch.nn.functional as F
from dien import DIEN

torch.set_num_threads(1)
torch.manual_seed(0)


def make_batch(b=16, t=6, n=30):
    batch = {g + s: torch.randint(0, n, (b,) if not s else (b, t))
             for g in ("item", "category") for s in ("", "_hist", "_neg")}
    batch["label"] = (batch["item"] % 2).float()
    return batch


def fit(model, batches, auxiliary_loss_rate=1.0, lr=0.05):
    optimizer, aux_log = torch.optim.Adam(model.parameters(), lr=lr), []
    for batch in batches:
        optimizer.zero_grad()
        pred, auxiliary_loss = model(batch)
        loss_t = F.binary_cross_entropy(pred, batch["label"]) + auxiliary_loss_rate * auxiliary_loss
        loss_t.backward()
        optimizer.step()
        aux_log.append(auxiliary_loss.item())
    return aux_log


batches = [make_batch() for _ in range(20)]
model = DIEN()
aux_before = copy.deepcopy(model.interests["item"].auxiliary_net.state_dict())
aux_log = fit(model, batches)
assert all(v > 0 for v in aux_log), "the auxiliary loss is computed and logged"
aux_net = model.interests["item"].auxiliary_net
assert all(p.grad is None for p in aux_net.parameters()) and all(
    torch.equal(aux_before[k], v) for k, v in aux_net.state_dict().items())


def gru_grad(m, batch, rate):
    m.zero_grad()
    pred, aux = m(batch)
    (F.binary_cross_entropy(pred, batch["label"]) + rate * aux).backward()
    return m.interests["item"].interest_extractor.weight_hh_l0.grad.clone()


probe = DIEN()   # GRU gradient is the same with the auxiliary term on and off
assert torch.equal(gru_grad(probe, batches[0], 1.0), gru_grad(probe, batches[0], 0.0))


class StackedAuxDIEN(DIEN):
    def forward(self, batch):
        feats, aux = [], []
        for g in self.groups:
            e = self.embeddings[g]
            pooled, tmp = self.interests[g](e(batch[g]), e(batch[g + "_hist"]), e(batch[g + "_neg"]))
            feats, aux = feats + [e(batch[g]), pooled], aux + [tmp]
        return torch.sigmoid(self.mlp(torch.cat(feats, -1))).squeeze(-1), torch.stack(aux).mean()


fixed = StackedAuxDIEN()
fit(fixed, batches[:2])                       # stacking keeps the graph: aux nets get gradients
assert all(p.grad is not None for p in fixed.interests["item"].auxiliary_net.parameters())
print("p09 ok: torch.tensor(list of losses) trains nothing", aux_log[0], aux_log[-1])
