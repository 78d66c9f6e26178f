"""
expect: GL001 bag_attention.py:25
dynamic: confirm
source: https://github.com/thunlp/OpenNRE/pull/262

OpenNRE's BagAttention used the classifier's weight rows as the attention query through
`self.fc.weight.data[query]`; the PR replaced it with `self.fc.weight[query]`. With `.data`
the attention path contributes no gradient to the classifier rows: `fc.weight` learns only
as a classifier, never as the query that selects the right sentences. The asserts compare
the gradient on `fc.weight` with the `.data` query and with a tracked query on identical
inputs: the `.data` gradient equals the one obtained when the attention query is a constant,
and differs from the tracked one; the encoder still trains, so nothing looks broken.
"""
import copy
import torch
import torch.nn.functional as F
from bag_attention import SentenceEncoder, BagAttention

torch.set_num_threads(1)
torch.manual_seed(0)
NUM_CLASS = 5


class TrackedQueryBagAttention(BagAttention):
    def attention_query(self, label):
        return self.fc.weight[label]


class ConstantQueryBagAttention(BagAttention):
    def attention_query(self, label):
        return self.fc.weight[label].detach()


def make_bags(n_bags=6):
    tokens, scope, start = [], [], 0
    for _ in range(n_bags):
        n = int(torch.randint(2, 5, ()))
        tokens.append(torch.randint(0, 60, (n, 7)))
        scope.append((start, start + n))
        start += n
    return torch.cat(tokens), scope, torch.randint(0, NUM_CLASS, (n_bags,))


model = BagAttention(SentenceEncoder(), NUM_CLASS)
opt = torch.optim.SGD(model.parameters(), lr=0.3)
for step in range(25):
    token, scope, label = make_bags()
    loss = F.cross_entropy(model(label, scope, token), label)
    opt.zero_grad()
    loss.backward()
    opt.step()
assert model.sentence_encoder.proj.weight.grad.abs().sum() > 0   # training looks healthy


def fc_grad(cls, state, batch):
    m = cls(SentenceEncoder(), NUM_CLASS)
    m.load_state_dict(state)
    token, scope, label = batch
    F.cross_entropy(m(label, scope, token), label).backward()
    return m.fc.weight.grad.clone()


state = copy.deepcopy(model.state_dict())
batch = make_bags()
g_data = fc_grad(BagAttention, state, batch)
g_const = fc_grad(ConstantQueryBagAttention, state, batch)
g_tracked = fc_grad(TrackedQueryBagAttention, state, batch)
assert torch.allclose(g_data, g_const), "attention path adds nothing to fc.weight"
assert not torch.allclose(g_data, g_tracked, atol=1e-6), "tracked query changes the gradient"
print("p02 ok: fc.weight.data as attention query drops its gradient",
      float((g_tracked - g_data).abs().max()))
