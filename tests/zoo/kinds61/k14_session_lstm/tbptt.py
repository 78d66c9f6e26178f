import torch
import torch.nn as nn
import torch.nn.functional as F


class NextActionModel(nn.Module):
    """Predicts a user's next action from the stream of previous actions."""

    def __init__(self, n_actions, emb=12, hidden=40):
        super().__init__()
        self.hidden = hidden
        self.emb = nn.Embedding(n_actions, emb)
        self.cell = nn.LSTMCell(emb, hidden)
        self.out = nn.Linear(hidden, n_actions)

    def init_state(self, batch):
        z = torch.zeros(batch, self.hidden)
        return z, z.clone()

    def forward(self, action, state):
        h, c = self.cell(self.emb(action), state)
        return self.out(h), (h, c)


def start_segment(state):
    h, c = state
    return h.clone(), c.clone()


def train_stream(model, optimizer, actions, k=10):
    """actions: (batch, time) long tensor of action ids, one long stream per user."""
    state = model.init_state(actions.size(0))
    loss, seen = 0.0, []
    for t in range(actions.size(1) - 1):
        logits, state = model(actions[:, t], state)
        loss = loss + F.cross_entropy(logits, actions[:, t + 1])
        if (t + 1) % k == 0:
            optimizer.zero_grad()
            loss.backward(retain_graph=True)
            optimizer.step()
            seen.append(loss.item() / k)
            loss = 0.0
            state = start_segment(state)
    return seen
