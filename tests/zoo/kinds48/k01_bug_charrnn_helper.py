"""
expect: GL004 36
dynamic: confirm
source: kinds check 48, kind 1

A char-level RNN language model trained in truncated steps: the helper
`apply_update` calls backward(retain_graph=True) then opt.step(), while the
loop carries the hidden state from the previous chunk without detaching it.
Each backward walks back into earlier chunks, whose saved weights were already
changed by opt.step(), so training crashes (and the graph would keep growing).
"""
import torch
import torch.nn as nn

torch.manual_seed(0)
VOCAB, HID = 20, 32


class CharRNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, HID)
        self.cell = nn.RNNCell(HID, HID)
        self.out = nn.Linear(HID, VOCAB)

    def forward(self, chunk, h):
        logits = []
        for t in range(chunk.shape[1]):
            h = self.cell(self.emb(chunk[:, t]), h)
            logits.append(self.out(h))
        return torch.stack(logits, 1), h


def apply_update(loss, opt):
    opt.zero_grad()
    loss.backward(retain_graph=True)
    opt.step()
    return loss.item()


model = CharRNN()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
crit = nn.CrossEntropyLoss()
text = torch.randint(0, VOCAB, (4, 81))
hidden = torch.zeros(4, HID)
crashed = False
try:
    for start in range(0, 80, 10):
        x, y = text[:, start:start + 10], text[:, start + 1:start + 11]
        logits, hidden = model(x, hidden)  # hidden carried, not detached
        apply_update(crit(logits.reshape(-1, VOCAB), y.reshape(-1)), opt)
except RuntimeError as e:
    assert "inplace" in str(e), e
    crashed = True
assert crashed, "expected backward into a previous chunk to fail"

# Intended version: detach the carried state -> trains fine.
model = CharRNN()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
hidden = torch.zeros(4, HID)
for start in range(0, 80, 10):
    x, y = text[:, start:start + 10], text[:, start + 1:start + 11]
    logits, hidden = model(x, hidden.detach())
    apply_update(crit(logits.reshape(-1, VOCAB), y.reshape(-1)), opt)
print("ok: undetached hidden state crashed, detached version trained")
