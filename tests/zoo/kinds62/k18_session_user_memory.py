"""
expect: none
dynamic: dismiss
source: none, invented

A session-based recommender with a per-user long-term memory. Each session is encoded by a GRU over item
embeddings; the `summarizer` projection turns the final state into a session vector, which is stored in the
registered `user_memory` buffer with `self.user_memory[users] = summary.detach()` and read back in the user's
later sessions to predict the next item. The write cuts history on purpose (a user's memory must not chain
graphs across sessions), and the summarizer is not orphaned by it: the same session vector, with its graph,
also scores the next item in an auxiliary loss, so the summarizer is trained every step. The asserts show the
summarizer receives non-zero gradients and changes, the memory rows are written, and the next-item loss falls.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

N_USERS, N_ITEMS, N_GENRES, DIM, SESSION_LEN = 50, 120, 6, 32, 8
ITEM_GENRE = torch.randint(0, N_GENRES, (N_ITEMS,))
USER_GENRE = torch.randint(0, N_GENRES, (N_USERS,))


def sample_sessions(batch=32):
    users = torch.randint(0, N_USERS, (batch,))
    sessions = []
    for u in users.tolist():
        pool = (ITEM_GENRE == USER_GENRE[u]).nonzero().squeeze(1)
        mixed = torch.where(torch.rand(SESSION_LEN + 1) < 0.6,
                            pool[torch.randint(0, len(pool), (SESSION_LEN + 1,))],
                            torch.randint(0, N_ITEMS, (SESSION_LEN + 1,)))
        mixed[-1] = pool[torch.randint(0, len(pool), (1,))]
        sessions.append(mixed)
    return users, torch.stack(sessions)


class SessionRecommender(nn.Module):
    def __init__(self):
        super().__init__()
        self.items = nn.Embedding(N_ITEMS, DIM)
        self.gru = nn.GRU(DIM, DIM, batch_first=True)
        self.summarizer = nn.Linear(DIM, DIM)
        self.fuse = nn.Linear(2 * DIM, DIM)
        self.register_buffer("user_memory", torch.zeros(N_USERS, DIM))

    def encode(self, history):
        states, _ = self.gru(self.items(history))
        return states[:, -1]

    def summarize(self, last_state):
        return torch.tanh(self.summarizer(last_state))

    def remember(self, users, summary):
        self.user_memory[users] = summary.detach()

    def forward(self, users, history):
        last = self.encode(history)
        summary = self.summarize(last)
        user_vec = self.fuse(torch.cat([last, self.user_memory[users]], dim=-1))
        return user_vec @ self.items.weight.t(), summary @ self.items.weight.t(), summary


def main():
    model = SessionRecommender()
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    s0 = model.summarizer.weight.detach().clone()
    losses = []
    for step in range(400):
        users, sessions = sample_sessions()
        history, target = sessions[:, :-1], sessions[:, -1]
        scores, aux_scores, summary = model(users, history)
        loss = F.cross_entropy(scores, target) + 0.5 * F.cross_entropy(aux_scores, target)
        opt.zero_grad()
        loss.backward()
        assert model.summarizer.weight.grad is not None and model.summarizer.weight.grad.abs().sum() > 0
        opt.step()
        model.remember(users, summary)
        losses.append(F.cross_entropy(scores, target).item())

    assert not torch.equal(model.summarizer.weight, s0)
    assert (model.user_memory.abs().sum(dim=1) > 0).float().mean() > 0.9
    assert not model.user_memory.requires_grad
    early, late = sum(losses[:20]) / 20, sum(losses[-20:]) / 20
    assert late < early - 0.5, (early, late)
    print(f"k18: next-item loss {early:.3f} -> {late:.3f}")


if __name__ == "__main__":
    main()
