"""expect: GL005 39
expect: GL005 40
dynamic: confirm
source: https://github.com/idiap/fast-transformers/pull/10

Recurrent formulation of causal linear attention (as in "Transformers are
RNNs"), used here to train a tiny autoregressive model one time step at a time.
The attention keeps a running key-value state S and normaliser Z and updates them
with in-place `+=` at each step. The previous step's output was computed with
einsums that saved S and Z for backward, so the in-place accumulation at the next
step overwrites tensors autograd still needs: the loss over the sequence cannot
be backpropagated ("modified by an inplace operation"). Writing S = S + ... fixes
it.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def elu_feature_map(x):
    return F.elu(x) + 1


class RecurrentLinearAttention(nn.Module):
    def __init__(self, dim, heads=2, eps=1e-6):
        super().__init__()
        self.heads, self.eps = heads, eps
        self.qkv = nn.Linear(dim, 3 * dim)
        self.out = nn.Linear(dim, dim)

    def forward(self, x_t, state=None):
        n, d = x_t.shape
        q, k, v = self.qkv(x_t).view(n, 3, self.heads, d // self.heads).unbind(1)
        q, k = elu_feature_map(q), elu_feature_map(k)
        if state is None:
            s_i = q.new_zeros(n, self.heads, k.shape[-1], v.shape[-1])
            z_i = q.new_zeros(n, self.heads, k.shape[-1])
        else:
            s_i, z_i = state
        z_i += k
        s_i += torch.einsum("nhd,nhm->nhdm", k, v)
        num = torch.einsum("nhd,nhdm->nhm", q, s_i)
        den = 1.0 / (torch.einsum("nhd,nhd->nh", q, z_i) + self.eps)
        y = (num * den.unsqueeze(-1)).reshape(n, d)
        return self.out(y), (s_i, z_i)


class RecurrentLM(nn.Module):
    def __init__(self, vocab=16, dim=8):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.attn = RecurrentLinearAttention(dim)
        self.head = nn.Linear(dim, vocab)

    def forward(self, tokens):
        state, logits = None, []
        for t in range(tokens.shape[1]):
            h, state = self.attn(self.embed(tokens[:, t]), state)
            logits.append(self.head(h))
        return torch.stack(logits, dim=1)


def main():
    torch.manual_seed(0)
    model = RecurrentLM()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    seq = torch.randint(0, 16, (3, 6))
    try:
        logits = model(seq[:, :-1])
        loss = F.cross_entropy(logits.reshape(-1, 16), seq[:, 1:].reshape(-1))
        opt.zero_grad()
        loss.backward()
        opt.step()
    except RuntimeError as err:
        assert "modified by an inplace operation" in str(err), err
        print("in-place state accumulation clobbered tensors saved for backward")
    else:
        raise AssertionError("expected backward to fail")


if __name__ == "__main__":
    main()
