"""Training loop and retrieval metric for the matcher."""
import torch


def fit(model, jobs, cands, epochs=30, batch_size=64, lr=3e-3, seed=0):
    g = torch.Generator().manual_seed(seed)
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    history = []
    for _ in range(epochs):
        perm = torch.randperm(len(jobs), generator=g)
        for start in range(0, len(jobs), batch_size):
            idx = perm[start:start + batch_size]
            loss = model.compute_loss(jobs[idx], cands[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            history.append(loss.item())
    return history


@torch.no_grad()
def recall_at_1(model, jobs, cands):
    scores = model.job_tower(jobs) @ model.cand_tower(cands).T
    return (scores.argmax(dim=1) == torch.arange(len(jobs))).float().mean().item()
