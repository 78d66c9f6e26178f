"""
expect: GL004 39
dynamic: confirm
source: kind A

A recurrent policy-gradient trainer carries a GRU hidden state across environment steps; its
`truncate_bptt` option defaults to False, and the script builds the trainer only with that default,
so the carried state stays attached while every step calls backward(retain_graph=True).
A hook on each step's hidden state records which steps a backward reaches: the count grows
1, 2, 3, ... with the step index, while a hand-written fixed loop that detaches the state reaches
only the current step and trains.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)


class RecurrentPolicyTrainer:
    def __init__(self, obs_dim=4, hidden=8, n_actions=3, truncate_bptt=False):
        self.cell = nn.GRUCell(obs_dim, hidden)
        self.head = nn.Linear(hidden, n_actions)
        params = list(self.cell.parameters()) + list(self.head.parameters())
        self.opt = torch.optim.Adam(params, lr=1e-2)
        self.truncate_bptt = truncate_bptt
        self.hidden_size = hidden
        self.h = torch.zeros(1, hidden)
        self.visited = []
        self.reach_counts = []

    def observe(self, obs, action, advantage):
        if self.truncate_bptt:
            self.h = self.h.detach()
        h_next = self.cell(obs, self.h)
        h_next.register_hook(lambda g, s=len(self.reach_counts): self.visited.append(s))
        logp = torch.log_softmax(self.head(h_next), dim=-1)[0, action]
        loss = -(logp * advantage)
        before = len(self.visited)
        loss.backward(retain_graph=True)
        self.reach_counts.append(len(self.visited) - before)
        self.h = h_next
        return loss.item()

    def end_episode(self):
        self.opt.step()
        self.opt.zero_grad()
        self.h = torch.zeros(1, self.hidden_size)


trainer = RecurrentPolicyTrainer()
episode = [(torch.randn(1, 4), int(torch.randint(0, 3, ())), float(torch.randn(()))) for _ in range(6)]
for obs, act, adv in episode:
    trainer.observe(obs, act, adv)
trainer.end_episode()
print("steps reached per backward (default trainer):", trainer.reach_counts)
assert trainer.reach_counts == [1, 2, 3, 4, 5, 6], trainer.reach_counts

# Fixed variant, written out by hand: detach the carried state each step, no retained graph.
cell, head = nn.GRUCell(4, 8), nn.Linear(8, 3)
opt = torch.optim.Adam(list(cell.parameters()) + list(head.parameters()), lr=1e-2)
w0 = cell.weight_hh.detach().clone()
h, fixed_counts, hits = torch.zeros(1, 8), [], []
for obs, act, adv in episode:
    h = cell(obs, h.detach())
    h.register_hook(lambda g: hits.append(1))
    loss = -(torch.log_softmax(head(h), dim=-1)[0, act] * adv)
    before = len(hits)
    opt.zero_grad()
    loss.backward()
    opt.step()
    fixed_counts.append(len(hits) - before)
print("steps reached per backward (fixed):", fixed_counts)
assert fixed_counts == [1] * 6
assert not torch.equal(w0, cell.weight_hh.detach())
print("ok")
