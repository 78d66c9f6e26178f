"""
expect: none
dynamic: dismiss
source: none, invented

Topic discovery with non-negative matrix factorization fitted by projected gradient descent in
PyTorch: a synthetic document-term matrix is generated from 5 sparse topics, and the factors
`doc_topic` and `topic_word` are `nn.Parameter`s trained with Adam on the Frobenius reconstruction
error plus a small L1 term.  After every `optimizer.step()` the factors are projected back onto the
non-negative orthant through `.data` (`topic_word.data[topic_word.data < 0] = 0` and a `clamp_`).  The
graph of that step's loss has already been consumed by `backward()`, and the next forward starts from
the projected values, so the in-place `.data` edits cannot corrupt any saved tensor.  The asserts
check non-negativity after every step, that the gradients of one step match a fresh recomputation,
that the reconstruction error falls at least five-fold, and that every true topic is recovered.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)

N_DOCS, VOCAB, K = 300, 80, 5


def synthetic_corpus():
    topics = torch.zeros(K, VOCAB)
    for k in range(K):
        topics[k, k * 16:(k + 1) * 16] = torch.rand(16) + 0.5
    topics = topics / topics.sum(1, keepdim=True)
    mix = torch.distributions.Dirichlet(0.3 * torch.ones(K)).sample((N_DOCS,))
    counts = torch.poisson(200 * mix @ topics)
    return counts / counts.sum(1, keepdim=True).clamp(min=1), topics


def fit_nmf(V, steps=1500, l1=1e-5):
    doc_topic = nn.Parameter(torch.rand(N_DOCS, K))
    topic_word = nn.Parameter(torch.rand(K, VOCAB) / VOCAB)
    opt = torch.optim.Adam([doc_topic, topic_word], lr=1e-2)

    def objective():
        return (V - doc_topic @ topic_word).pow(2).sum() + l1 * (doc_topic.sum() + topic_word.sum())

    history = []
    for step in range(steps):
        loss = objective()
        opt.zero_grad()
        loss.backward()
        if step == 10:
            g_dt, g_tw = doc_topic.grad.clone(), topic_word.grad.clone()
            again = torch.autograd.grad(objective(), [doc_topic, topic_word])
            assert torch.allclose(g_dt, again[0]) and torch.allclose(g_tw, again[1])
        opt.step()
        topic_word.data[topic_word.data < 0] = 0.0
        doc_topic.data.clamp_(min=0.0)
        assert (doc_topic >= 0).all() and (topic_word >= 0).all()
        history.append(loss.item())
    return doc_topic.detach(), topic_word.detach(), history


V, true_topics = synthetic_corpus()
W, H, history = fit_nmf(V)
assert history[-1] < 0.2 * history[0], (history[0], history[-1])
Hn = H / H.sum(1, keepdim=True).clamp(min=1e-12)
similarity = torch.nn.functional.normalize(true_topics, dim=1) @ torch.nn.functional.normalize(Hn, dim=1).T
assert (similarity.max(1).values > 0.9).all(), similarity.max(1).values
print(f"k21: projected NMF; loss {history[0]:.3f} -> {history[-1]:.4f}, topics recovered")
