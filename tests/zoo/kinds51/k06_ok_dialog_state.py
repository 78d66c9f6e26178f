"""
expect: none
dynamic: dismiss
source: kinds check 51, kind 3

A dialogue-act tagger keeps a hidden state on the module and updates it in
advance(). The training loop calls model.reset() (rebinding the state to zeros)
before every utterance, so although backward uses retain_graph=True no graph is
carried from one iteration into the next.
"""
import torch
import torch.nn as nn

torch.manual_seed(5)


class ActTagger(nn.Module):
    def __init__(self, emb=10, hid=16, n_acts=4):
        super().__init__()
        self.cell = nn.GRUCell(emb, hid)
        self.out = nn.Linear(hid, n_acts)
        self.hid = hid
        self.reset()

    def reset(self):
        self.state = torch.zeros(1, self.hid)

    def advance(self, token_vec):
        self.state = self.cell(token_vec, self.state)
        return self.out(self.state)


def step_loss(model, batch):
    tokens, act = batch
    logits = None
    for tok in tokens:
        logits = model.advance(tok.unsqueeze(0))
    return nn.functional.cross_entropy(logits, act)


model = ActTagger()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
for it in range(5):
    batch = (torch.randn(3, 10), torch.randint(0, 4, (1,)))
    model.reset()
    opt.zero_grad()
    loss = step_loss(model, batch)
    loss.backward(retain_graph=True)
    opt.step()
assert model.cell.weight_ih.grad is not None
print("ok: five iterations trained without error")
