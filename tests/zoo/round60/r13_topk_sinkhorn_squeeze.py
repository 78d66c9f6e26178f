"""
expect: GL005 41
dynamic: confirm
source: https://github.com/Thinklab-SJTU/LinSATNet/issues/2

LinSATNet projects scores onto linear constraints with a multi-marginal Sinkhorn
iteration done in log space and returns torch.exp(log_x). When the caller passes
a single 1-D score vector, the layer adds a batch dimension at the start and at
the end calls x.squeeze_(0) on the result. squeeze_ is an in-place (view) edit
of the very tensor that exp saved for its backward, so its version counter
moves; the forward looks fine and the backward of the user's loss fails with
"modified by an inplace operation". The upstream fix replaced it with
x = x.squeeze(0). The program uses the same shape of layer as a soft top-k
selector inside a small learning-to-rank setup (a linear scorer picks k of n
documents per query): with the in-place squeeze the RuntimeError is raised and
caught; with the out-of-place squeeze the scorer trains and the selected
probability mass moves onto the relevant documents.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


def soft_topk(scores, k, tau=0.1, iters=30, inplace_squeeze=True):
    """Project scores (n,) or (b, n) onto {0<=x<=1, sum x = k} with log-space Sinkhorn."""
    vector_input = scores.dim() == 1
    if vector_input:
        scores = scores.unsqueeze(0)
    b, n = scores.shape
    # two-row transport: row 0 = "selected" (mass k), row 1 = "dropped" (mass n-k)
    log_x = torch.stack([scores / tau, torch.zeros_like(scores)], dim=1)   # (b, 2, n)
    log_row = torch.log(torch.tensor([k, n - k], dtype=scores.dtype)).view(1, 2, 1)
    for _ in range(iters):
        log_x = log_x - torch.logsumexp(log_x, dim=2, keepdim=True) + log_row
        log_x = log_x - torch.logsumexp(log_x, dim=1, keepdim=True)
    x = torch.exp(log_x[:, 0, :])
    if vector_input:
        if inplace_squeeze:
            x.squeeze_(0)
        else:
            x = x.squeeze(0)
    return x


# toy queries: 8 documents with 5 features, 2 relevant ones per query
n_docs, k = 8, 2
true_w = torch.tensor([1.5, -1.0, 0.5, 0.0, 2.0])
queries = []
for _ in range(6):
    feats = torch.randn(n_docs, 5)
    rel = torch.zeros(n_docs)
    rel[torch.topk(feats @ true_w, k).indices] = 1.0
    queries.append((feats, rel))


def run(inplace_squeeze, epochs=25):
    torch.manual_seed(1)
    scorer = nn.Linear(5, 1)
    opt = torch.optim.Adam(scorer.parameters(), lr=0.05)
    history = []
    for _ in range(epochs):
        total = 0.0
        for feats, rel in queries:
            opt.zero_grad()
            sel = soft_topk(scorer(feats).squeeze(-1), k, inplace_squeeze=inplace_squeeze)
            loss = -(sel * rel).sum() / k          # mass placed on relevant documents
            loss.backward()
            opt.step()
            total += loss.item()
        history.append(total / len(queries))
    return history


try:
    run(inplace_squeeze=True, epochs=1)
    raise AssertionError("expected the in-place squeeze to break backward")
except RuntimeError as err:
    assert "modified by an inplace operation" in str(err)
    print("in-place squeeze_: expected in-place RuntimeError caught")

hist = run(inplace_squeeze=False)
assert hist[-1] < hist[0] - 0.2, hist
print(f"out-of-place squeeze: loss {hist[0]:.3f} -> {hist[-1]:.3f}")
