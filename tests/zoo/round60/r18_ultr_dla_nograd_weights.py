"""
expect: none
dynamic: dismiss
source: https://github.com/ULTR-Community/ULTRA_pytorch/blob/1757587f369336ac5b76c48f9805e4e921597a3b/ultra/learning_algorithm/dla.py#L200

ULTRA's Dual Learning Algorithm (DLA) for unbiased learning to rank from clicks
trains a ranker and a propensity (examination) model at the same time. In
train() both cross-weights are computed inside `with torch.no_grad()`: the
inverse-propensity weights for the ranking loss come from the propensity model,
and the relevance weights for the examination loss come from the ranker. That
looks like the models are cut off, but each model is still trained by its own
loss (scores -> ranking loss, propensity logits -> examination loss); the
no_grad only stops each loss from moving the *other* model through its weights,
which is what the algorithm prescribes. The program simulates clicks with a
position-based click model, trains both towers with the same weighting, and
checks that both receive gradients, that the learned examination ratios recover
the true ordering of the position bias, and that the ranker beats its initial
NDCG on the true relevance.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)

LIST, FEAT, N_QUERIES = 5, 4, 256
true_w = torch.tensor([2.0, -1.0, 1.0, 0.5])
true_exam = torch.tensor([1.0, 0.6, 0.35, 0.2, 0.1])

features = torch.randn(N_QUERIES, LIST, FEAT)
relevance = (torch.sigmoid(features @ true_w) > 0.6).float()
clicks = torch.bernoulli(relevance * true_exam)          # position-based click model


def softmax_loss(logits, labels, weights):
    weighted = (labels + 1e-7) * weights
    target = weighted / weighted.sum(dim=1, keepdim=True)
    return -(target * torch.log_softmax(logits, dim=1)).sum(dim=1).mean()


def normalized_weights(prob):
    # weight of position i relative to the first one, as in ULTRA's get_normalized_weights
    return prob[:, :1] / prob


ranker = nn.Linear(FEAT, 1)
propensity_model = nn.Linear(LIST, 1, bias=False)     # scores one-hot positions
opt = torch.optim.Adam(list(ranker.parameters()) + list(propensity_model.parameters()), lr=0.05)
positions = torch.eye(LIST)


def ndcg(scores):
    order = scores.argsort(dim=1, descending=True)
    gains = torch.gather(relevance, 1, order)
    disc = 1.0 / torch.log2(torch.arange(LIST).float() + 2)
    ideal = relevance.sort(dim=1, descending=True).values
    return ((gains * disc).sum(1) / ((ideal * disc).sum(1) + 1e-9)).mean().item()


with torch.no_grad():
    ndcg_start = ndcg(ranker(features).squeeze(-1))

for step in range(300):
    train_output = ranker(features).squeeze(-1)                       # (Q, LIST)
    propensity = propensity_model(positions).view(1, LIST).expand(N_QUERIES, LIST)
    with torch.no_grad():
        propensity_weights = normalized_weights(torch.softmax(propensity, dim=1))
    rank_loss = softmax_loss(train_output, clicks, propensity_weights)
    with torch.no_grad():
        relevance_weights = normalized_weights(torch.softmax(train_output, dim=1))
    exam_loss = softmax_loss(propensity, clicks, relevance_weights)
    opt.zero_grad()
    (exam_loss + rank_loss).backward()
    if step == 0:
        assert ranker.weight.grad is not None and ranker.weight.grad.abs().sum() > 0
        assert propensity_model.weight.grad is not None and propensity_model.weight.grad.abs().sum() > 0
    opt.step()

with torch.no_grad():
    learned = torch.softmax(propensity_model(positions).view(-1), dim=0)
    ratios = learned / learned[0]
    ndcg_end = ndcg(ranker(features).squeeze(-1))

assert torch.all(ratios[1:] < ratios[:-1]), ratios
assert ndcg_end > ndcg_start + 0.05, (ndcg_start, ndcg_end)
print("learned examination ratios:", [round(v, 2) for v in ratios.tolist()])
print(f"ranker NDCG on true relevance: {ndcg_start:.3f} -> {ndcg_end:.3f}")
