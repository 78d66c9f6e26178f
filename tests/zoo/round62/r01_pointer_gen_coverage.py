"""
expect: GL005 55
dynamic: confirm
source: https://github.com/mjc92/GetToThePoint/blob/3dc05a5123dabbe4213f811a1a46609154328a0f/model.py

In this pointer-generator re-implementation for abstractive summarization the decoder keeps a coverage
vector (the running sum of past attention distributions). At every decoding step the coverage is fed into
the attention features through a linear layer, the coverage loss takes the element-wise minimum of the new
attention and the coverage, and then the coverage is advanced with an augmented assignment on the same
tensor. Both the linear layer and the minimum saved that tensor for the backward pass, so the in-place
addition bumps its version counter and the first backward of the summed loss fails with "modified by an
inplace operation". The program below rebuilds that decoder step on tiny random token ids, catches and
checks the RuntimeError for the in-place update, and shows that the out-of-place update
(coverage = coverage + attn) trains: the loss goes down and the coverage projection gets a non-zero
gradient.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

VOCAB, HID, SRC_LEN, TGT_LEN, BATCH = 24, 16, 7, 5, 4


class CoverageSummarizer(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, HID)
        self.encoder = nn.GRU(HID, HID, batch_first=True)
        self.cell = nn.GRUCell(HID, HID)
        self.W_h = nn.Linear(HID, HID, bias=False)
        self.W_s = nn.Linear(HID, HID)
        self.W_c = nn.Linear(1, HID, bias=False)
        self.v = nn.Linear(HID, 1, bias=False)
        self.proj = nn.Linear(2 * HID, VOCAB)

    def forward(self, src, tgt_in, out_of_place):
        enc_out, enc_last = self.encoder(self.embed(src))
        state = enc_last.squeeze(0)
        coverage = torch.zeros(src.size(0), src.size(1))
        cov_loss = 0.0
        step_logits = []
        for t in range(tgt_in.size(1)):
            state = self.cell(self.embed(tgt_in[:, t]), state)
            feats = self.W_h(enc_out) + self.W_s(state).unsqueeze(1) + self.W_c(coverage.unsqueeze(2))
            attn = F.softmax(self.v(torch.tanh(feats)).squeeze(2), dim=1)
            cov_loss = cov_loss + torch.sum(torch.min(attn, coverage))
            context = torch.bmm(attn.unsqueeze(1), enc_out).squeeze(1)
            step_logits.append(self.proj(torch.cat([state, context], dim=1)))
            if out_of_place:
                coverage = coverage + attn
            else:
                coverage += attn
        return torch.stack(step_logits, dim=1), cov_loss


def batch_loss(model, src, tgt, out_of_place):
    logits, cov_loss = model(src, tgt[:, :-1], out_of_place)
    nll = F.cross_entropy(logits.reshape(-1, VOCAB), tgt[:, 1:].reshape(-1))
    return nll + 0.5 * cov_loss / src.size(0)


src = torch.randint(0, VOCAB, (BATCH, SRC_LEN))
tgt = torch.randint(0, VOCAB, (BATCH, TGT_LEN + 1))

# 1) the original in-place coverage update
model = CoverageSummarizer()
loss = batch_loss(model, src, tgt, out_of_place=False)
raised = False
try:
    loss.backward()
except RuntimeError as err:
    raised = "modified by an inplace operation" in str(err)
assert raised, "expected the in-place coverage update to break backward"
print("in-place coverage update: backward refused (saved tensor was modified)")

# 2) the out-of-place update trains
torch.manual_seed(0)
model = CoverageSummarizer()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
losses = []
for step in range(40):
    opt.zero_grad()
    loss = batch_loss(model, src, tgt, out_of_place=True)
    loss.backward()
    if step == 0:
        assert model.W_c.weight.grad is not None
        assert model.W_c.weight.grad.abs().sum() > 0
    opt.step()
    losses.append(loss.item())
assert losses[-1] < losses[0] * 0.7, (losses[0], losses[-1])
print("out-of-place coverage update: loss %.3f -> %.3f" % (losses[0], losses[-1]))
