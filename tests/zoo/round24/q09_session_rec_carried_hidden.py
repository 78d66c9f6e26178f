"""
expect: GL004 64
dynamic: confirm
source: https://github.com/yhs968/pyGRU4REC/issues/8

pyGRU4REC carries the hidden state between session-parallel mini-batches with
reset_hidden(hidden, mask).detach(); the issue asks to drop the detach so a click's loss
reaches earlier clicks. Without it the next backward fails, and the usual fix,
backward(retain_graph=True), keeps every earlier mini-batch's graph alive, so each step
backpropagates through the whole stream. Here a small session recommender (item embeddings,
gated recurrence) is trained that way; the asserts show the graph behind the loss grows every
step and an item seen only in the first mini-batch still gets gradient thirty steps later,
while the detaching trainer keeps a constant-size graph.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

N_ITEMS, DIM, BATCH = 60, 16, 8


class SessionRecommender(nn.Module):
    def __init__(self):
        super().__init__()
        self.item_emb = nn.Embedding(N_ITEMS, DIM)
        self.raw_decay = nn.Parameter(torch.tensor(0.5))
        self.out = nn.Linear(DIM, N_ITEMS)

    def step(self, hidden, items):
        decay = torch.sigmoid(self.raw_decay)
        hidden = torch.tanh(decay * hidden + self.item_emb(items))
        scores = self.out(hidden)
        return scores, hidden


def graph_size(t):
    seen, stack = set(), [t.grad_fn]
    while stack:
        node = stack.pop()
        if node is None or node in seen:
            continue
        seen.add(node)
        stack.extend(n for n, _ in node.next_functions)
    return len(seen)


class SessionParallelTrainer:
    def __init__(self, model, detach_hidden):
        self.model, self.detach_hidden = model, detach_hidden
        self.opt = torch.optim.Adam(model.parameters(), lr=1e-2)
        self.hidden = torch.zeros(BATCH, DIM)

    def train_step(self, items, targets, session_ended):
        keep = (~session_ended).float().unsqueeze(1)
        hidden = self.hidden * keep
        if self.detach_hidden:
            hidden = hidden.detach()
        scores, self.hidden = self.model.step(hidden, items)
        loss = F.cross_entropy(scores, targets)
        self.opt.zero_grad()
        loss.backward(retain_graph=True)
        old_item_grad = self.model.item_emb.weight.grad[0].abs().sum().item()
        self.opt.step()
        return graph_size(loss), old_item_grad


def stream(steps):
    g = torch.Generator().manual_seed(1)
    first = torch.zeros(BATCH, dtype=torch.long)  # item 0 is only ever clicked in step 0
    for t in range(steps):
        items = first if t == 0 else torch.randint(1, N_ITEMS, (BATCH,), generator=g)
        targets = torch.randint(1, N_ITEMS, (BATCH,), generator=g)
        yield items, targets, torch.zeros(BATCH, dtype=torch.bool)


base = SessionRecommender()
state = {k: v.clone() for k, v in base.state_dict().items()}

buggy = SessionParallelTrainer(base, detach_hidden=False)
sizes, old_grads = zip(*(buggy.train_step(*b) for b in stream(30)))
assert sizes[-1] > 8 * sizes[1] and all(a < b for a, b in zip(sizes[1:], sizes[2:]))
assert old_grads[-1] > 0  # step 30 still pushes gradient into a step-0 click

fixed_model = SessionRecommender()
fixed_model.load_state_dict(state)
fixed = SessionParallelTrainer(fixed_model, detach_hidden=True)
sizes_f, old_grads_f = zip(*(fixed.train_step(*b) for b in stream(30)))
assert len(set(sizes_f[1:])) == 1
assert old_grads_f[-1] == 0.0
print("q09 ok: carried session state + retain_graph keeps the whole stream's graph alive")
