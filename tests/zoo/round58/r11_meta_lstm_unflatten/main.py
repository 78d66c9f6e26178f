"""
expect: GL001 learner_utils.py:15
dynamic: confirm
source: https://github.com/gitabcworld/FewShotLearning/issues/2

The reported code is a PyTorch port of the "optimization as a model for few-shot
learning" meta-learner: an LSTM-like cell whose cell state is the learner's flat
parameter vector, so after a few inner steps the cell state *is* the adapted learner,
and the episode's test loss should be backpropagated into the meta-learner's gates and
into the learned initial weights. To evaluate the learner with those weights, the
project copied the cell state into the learner with a helper that does
`param.data = flat[...].view_as(param).data` (here in learner_utils.py). Assigning
through `.data` stores the numbers but drops the history, so the test loss depends only
on the learner's own leaf parameters; the meta-learner's parameters never receive a
gradient (the commit message of the report says "Backprop of the gradients does not
arrive to the LSTM modules"). The asserts show every meta-parameter has `.grad is None`
after the meta loss's backward and is bit-identical after several meta-optimizer
steps, while the fixed path (the same slices fed through torch.func.functional_call
so they keep their history) gives non-zero gradients and moves the meta-parameters.
"""
import torch
import torch.nn as nn

from metalearner import MetaLearner

torch.manual_seed(0)
torch.set_num_threads(1)

N_WAY, K_SHOT, N_QUERY, DIM = 3, 5, 10, 8


def make_episode():
    centers = torch.randn(N_WAY, DIM) * 2.0
    def draw(k):
        y = torch.arange(N_WAY).repeat_interleave(k)
        x = centers[y] + 0.5 * torch.randn(len(y), DIM)
        return x, y
    return draw(K_SHOT) + draw(N_QUERY)


def meta_train(keep_graph, episodes=15):
    learner = nn.Sequential(nn.Linear(DIM, 16), nn.ReLU(), nn.Linear(16, N_WAY))
    meta = MetaLearner(learner)
    opt = torch.optim.Adam(meta.parameters(), lr=1e-2)
    before = [p.detach().clone() for p in meta.parameters()]
    grads_seen = []
    for _ in range(episodes):
        tr_x, tr_y, te_x, te_y = make_episode()
        loss = meta(learner, tr_x, tr_y, te_x, te_y, steps=3, keep_graph=keep_graph)
        opt.zero_grad()
        loss.backward()
        grads_seen.append([p.grad for p in meta.parameters()])
        opt.step()
    after = [p.detach() for p in meta.parameters()]
    return grads_seen, before, after


if __name__ == "__main__":
    grads, before, after = meta_train(keep_graph=False)
    # buggy path: the meta loss never reaches the meta-learner
    assert all(g is None for step in grads for g in step)
    assert all(torch.equal(b, a) for b, a in zip(before, after))

    grads, before, after = meta_train(keep_graph=True)
    assert all(g is not None for g in grads[0])
    assert any(g.abs().sum() > 0 for g in grads[0])
    assert any(not torch.equal(b, a) for b, a in zip(before, after))
    print("ok: .data copy cuts the meta-gradient; functional_call path trains the meta-learner")
