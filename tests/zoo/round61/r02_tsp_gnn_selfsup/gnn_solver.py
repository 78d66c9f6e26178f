import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class GraphAttentionLayer(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.W = nn.Linear(dim, dim, bias=False)
        self.a = nn.Linear(2 * dim, 1, bias=False)

    def forward(self, h):
        wh = self.W(h)                      # (N, d)
        n = wh.size(0)
        pairs = torch.cat([wh.repeat_interleave(n, 0), wh.repeat(n, 1)], dim=1)
        e = F.leaky_relu(self.a(pairs).view(n, n), 0.2)
        return torch.softmax(e, dim=1) @ wh


class TourGNN(nn.Module):
    def __init__(self, dim=16, layers=2):
        super().__init__()
        self.node_encoder = nn.Sequential(nn.Linear(2, dim), nn.ReLU(), nn.Linear(dim, dim))
        self.gat = nn.ModuleList([GraphAttentionLayer(dim) for _ in range(layers)])
        self.context = nn.Linear(dim, dim)
        self.scorer = nn.Linear(2 * dim, 1)

    def forward(self, coords):
        h = self.node_encoder(coords)
        for layer in self.gat:
            h = F.relu(layer(h))
        return h

    def next_scores(self, emb, current, visited):
        ctx = self.context(emb[current]).expand(emb.size(0), -1)
        scores = self.scorer(torch.cat([ctx, emb], dim=1)).squeeze(1)
        return scores.masked_fill(visited, float("-inf"))

    def decode_tour(self, emb, start=0):
        # greedy decoding, as in the solver's inference path
        n = emb.size(0)
        tour, visited, current = [start], {start}, start
        while len(tour) < n:
            ctx = self.context(emb[current])
            candidates = [i for i in range(n) if i not in visited]
            scores = torch.stack([self.scorer(torch.cat([ctx, emb[i]])) for i in candidates])
            current = candidates[torch.argmax(scores.squeeze(1)).item()]
            visited.add(current)
            tour.append(current)
        return tour

    def sample_tour(self, emb, start=0):
        n = emb.size(0)
        visited = torch.zeros(n, dtype=torch.bool)
        visited[start] = True
        tour, current, logps = [start], start, []
        while len(tour) < n:
            scores = self.next_scores(emb, current, visited)
            dist = torch.distributions.Categorical(logits=scores)
            nxt = dist.sample()
            logps.append(dist.log_prob(nxt))
            current = nxt.item()
            visited = visited.clone()
            visited[current] = True
            tour.append(current)
        return tour, torch.stack(logps).sum()


def compute_tour_length(coords, tour):
    pts = np.asarray(coords)[tour + [tour[0]]]
    return float(np.linalg.norm(np.diff(pts, axis=0), axis=1).sum())


class TSPSolver:
    def __init__(self, lr=1e-2):
        self.model = TourGNN()
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=lr)

    def train(self, instances, epochs=3):
        """Self-supervised loop: minimise the length of the decoded tour."""
        self.model.train()
        history = []
        for _ in range(epochs):
            for coords in instances:
                emb = self.model(torch.tensor(coords, dtype=torch.float32))
                tour = self.model.decode_tour(emb)
                length = compute_tour_length(coords, tour)
                loss = torch.tensor(length, requires_grad=True)
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
                history.append(loss.item())
        return history

    def train_reinforce(self, instances, epochs=3):
        """Fixed loop: the tour length is a reward for the sampled tour's log-probability."""
        self.model.train()
        baseline = None
        for _ in range(epochs):
            for coords in instances:
                emb = self.model(torch.tensor(coords, dtype=torch.float32))
                tour, logp = self.model.sample_tour(emb)
                length = compute_tour_length(coords, tour)
                baseline = length if baseline is None else 0.9 * baseline + 0.1 * length
                loss = (length - baseline) * logp
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
