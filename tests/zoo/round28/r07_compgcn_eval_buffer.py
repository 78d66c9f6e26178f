"""
expect: GL001 56
dynamic: confirm
source: https://github.com/pykeen/pykeen/issues/571

PyKEEN bug: CompGCN buffers its enriched (message-passed) entity representations
and only clears the buffer in post_parameter_update(). The early stopper evaluates
under no_grad, which fills the buffer with representations that carry no graph;
the next training batch reuses them, so the GCN weights get no gradient (pykeen
raised because nothing else was left; with a regularizer it trains silently).
Asserts: right after an early-stopping check the GCN layer gets no gradient while
the regularized embedding does, and clearing the buffer after evaluation fixes it.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

NUM_E, NUM_R, DIM = 8, 3, 6
triples = torch.tensor([[0, 0, 1], [1, 1, 2], [2, 2, 3], [3, 0, 4], [4, 1, 5], [5, 2, 6], [6, 0, 7]])


class CompGCNLike(nn.Module):
    def __init__(self):
        super().__init__()
        self.ent = nn.Embedding(NUM_E, DIM)
        self.rel = nn.Embedding(NUM_R, DIM)
        self.w_msg = nn.Linear(DIM, DIM, bias=False)
        self.enriched = None

    def _enrich(self):
        if self.enriched is None:
            h, r, t = triples.t()
            msg = self.w_msg(self.ent.weight[h] * self.rel.weight[r])
            agg = torch.zeros(NUM_E, DIM).index_add(0, t, msg)
            self.enriched = torch.tanh(self.ent.weight + agg)
        return self.enriched

    def post_parameter_update(self):
        self.enriched = None

    def score(self, h, r, t):
        x = self._enrich()
        return (x[h] * self.rel.weight[r] * x[t]).sum(-1)


class EarlyStopper:
    def __init__(self, model, clear_after_eval):
        self.model = model
        self.clear_after_eval = clear_after_eval

    def evaluate(self):
        self.model.eval()
        with torch.no_grad():
            h, r, t = triples.t()
            mrr_proxy = torch.sigmoid(self.model.score(h, r, t)).mean().item()
        if self.clear_after_eval:
            self.model.post_parameter_update()
        self.model.train()
        return mrr_proxy


def train_step(model, opt):
    h, r, t = triples.t()
    neg_t = (t + 3) % NUM_E
    pos, neg = model.score(h, r, t), model.score(h, r, neg_t)
    loss = F.softplus(neg - pos).mean() + 1e-2 * model.rel.weight.pow(2).sum()
    opt.zero_grad()
    loss.backward()
    grads = (model.w_msg.weight.grad, model.rel.weight.grad)
    opt.step()
    model.post_parameter_update()
    return grads


def run(clear_after_eval):
    torch.manual_seed(0)
    model = CompGCNLike()
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    stopper = EarlyStopper(model, clear_after_eval)
    g_before, _ = train_step(model, opt)
    stopper.evaluate()
    g_after, rel_after = train_step(model, opt)
    return g_before, g_after, rel_after


g_before, g_after, rel_after = run(clear_after_eval=False)
assert g_before is not None and g_before.abs().sum() > 0
assert g_after is None or g_after.abs().sum() == 0          # GCN cut off after evaluation
assert rel_after is not None and rel_after.abs().sum() > 0  # regularizer still trains

_, g_after_fixed, _ = run(clear_after_eval=True)
assert g_after_fixed is not None and g_after_fixed.abs().sum() > 0
print("ok: buffered eval representations cut the GCN from the loss")
