"""
expect: GL001 34
dynamic: confirm
source: none, invented

A hand-written gated recurrent cell for the "adding problem" (a sequence of values with two marked
positions; the target is the sum of the marked values). At every step `_update_gate` computes the update
gate from the current input and the recurrent state, and the cell mixes the old state with a candidate.
The gate is computed inside `with torch.no_grad():` in the middle of the recurrence: its input is the
model's own state and its output decides what the later steps see. Under no_grad the gate is a constant to
autograd, so `update_gate` never receives a gradient (and no gradient flows back through the gate into the
state), although the layer is in the optimizer. The asserts show `update_gate.weight.grad is None` and the
gate weights unchanged after training, while the candidate layer trains; the `GatedReaderV2` variant that
computes the gate with grad enabled trains the gate too.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class GatedReader(nn.Module):
    def __init__(self, hidden=24):
        super().__init__()
        self.hidden = hidden
        self.embed = nn.Linear(2, hidden)
        self.update_gate = nn.Linear(2 * hidden, hidden)
        self.candidate = nn.Linear(2 * hidden, hidden)
        self.readout = nn.Linear(hidden, 1)

    def _update_gate(self, xh):
        with torch.no_grad():
            z = torch.sigmoid(self.update_gate(xh))
        return z

    def forward(self, seq):
        h = seq.new_zeros(seq.size(0), self.hidden)
        for t in range(seq.size(1)):
            x = torch.tanh(self.embed(seq[:, t]))
            xh = torch.cat([x, h], dim=-1)
            z = self._update_gate(xh)
            h = z * h + (1 - z) * torch.tanh(self.candidate(xh))
        return self.readout(h).squeeze(-1)


class GatedReaderV2(GatedReader):
    def _update_gate(self, xh):
        return torch.sigmoid(self.update_gate(xh))


def adding_batch(n=64, length=15):
    values = torch.rand(n, length)
    marks = torch.zeros(n, length)
    first = torch.randint(0, length // 2, (n,))
    second = torch.randint(length // 2, length, (n,))
    marks[torch.arange(n), first] = 1.0
    marks[torch.arange(n), second] = 1.0
    target = (values * marks).sum(1)
    return torch.stack([values, marks], dim=-1), target


def train(model_cls, steps=40):
    torch.manual_seed(0)
    model = model_cls()
    opt = torch.optim.RMSprop(model.parameters(), lr=2e-3)
    gate0 = model.update_gate.weight.detach().clone()
    cand0 = model.candidate.weight.detach().clone()
    for _ in range(steps):
        seq, target = adding_batch()
        loss = F.mse_loss(model(seq), target)
        opt.zero_grad()
        loss.backward()
        opt.step()
    return model, gate0, cand0


if __name__ == "__main__":
    model, gate0, cand0 = train(GatedReader)
    assert model.update_gate.weight.grad is None
    assert torch.equal(model.update_gate.weight.detach(), gate0)
    assert not torch.equal(model.candidate.weight.detach(), cand0)

    model, gate0, cand0 = train(GatedReaderV2)
    assert model.update_gate.weight.grad.abs().sum() > 0
    assert not torch.equal(model.update_gate.weight.detach(), gate0)
    print("k07: update gate trains only when it is computed with grad enabled")
