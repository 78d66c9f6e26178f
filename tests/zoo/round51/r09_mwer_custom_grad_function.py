"""
expect: none
dynamic: dismiss
source: https://github.com/hirofumi0810/neural_sp/issues/322

Minimum-word-error (MBR) fine-tuning of an attention speech recogniser, built like neural_sp's forward_mbr: an
N-best list comes from a beam search run under torch.no_grad(), its scores go through NumPy and are rebuilt as
tensors, and the word error of every hypothesis is computed on Python lists. The expected error is therefore a
number with no graph, which is what the issue asks about ("the inputs are not used in backward, how does the grad
flow to model params?"). The gradient is attached another way: the decoder is run again with teacher forcing on
the N-best hypotheses, and a custom autograd.Function returns the expected error in forward and hands the
precomputed d(expected error)/d(log-probs) to those log-probs in backward. The asserts check that the decoder and
encoder receive gradients, and that they equal the gradients of the differentiable surrogate
sum_n p_n (wer_n - E[wer]) log P(y_n), i.e. the MBR gradient.
"""
import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)

VOCAB, LEN, NBEST = 6, 4, 4


class MBR(torch.autograd.Function):
    @staticmethod
    def forward(ctx, log_probs, exp_risk, grad_input):
        ctx.save_for_backward(grad_input)
        return exp_risk

    @staticmethod
    def backward(ctx, grad_output):
        grads, = ctx.saved_tensors
        return grads * grad_output, None, None


class Seq2Seq(nn.Module):
    def __init__(self, n_feats=8, hidden=16):
        super().__init__()
        self.enc = nn.GRU(n_feats, hidden, batch_first=True)
        self.embed = nn.Embedding(VOCAB + 1, hidden)      # last index = <sos>
        self.dec = nn.GRUCell(hidden, hidden)
        self.out = nn.Linear(2 * hidden, VOCAB)

    def encode(self, feats):
        eouts, _ = self.enc(feats)
        return eouts.mean(dim=1)                           # [B, H]

    def step(self, ctx, state, prev):
        state = self.dec(self.embed(prev), state)
        return state, torch.log_softmax(self.out(torch.cat([state, ctx], -1)), -1)

    def teacher_forced(self, ctx, hyps):                   # hyps [N, LEN] -> log-probs [N, LEN, V]
        state = torch.zeros_like(ctx)
        prev = torch.full((hyps.shape[0],), VOCAB, dtype=torch.long)
        outs = []
        for t in range(hyps.shape[1]):
            state, lp = self.step(ctx, state, prev)
            outs.append(lp)
            prev = hyps[:, t]
        return torch.stack(outs, dim=1)

    def beam_search(self, ctx, nbest=NBEST):
        beams = [([], 0.0, torch.zeros_like(ctx))]
        for _ in range(LEN):
            cand = []
            for seq, score, state in beams:
                prev = torch.tensor([seq[-1] if seq else VOCAB])
                new_state, lp = self.step(ctx, state, prev)
                for tok in range(VOCAB):
                    cand.append((seq + [tok], score + lp[0, tok].item(), new_state))
            beams = sorted(cand, key=lambda c: -c[1])[:nbest]
        return [b[0] for b in beams], [b[1] for b in beams]


def word_errors(ref, hyp):
    d = list(range(len(hyp) + 1))
    for i, r in enumerate(ref, 1):
        prev, d[0] = d[0], i
        for j, h in enumerate(hyp, 1):
            prev, d[j] = d[j], min(d[j] + 1, d[j - 1] + 1, prev + (r != h))
    return d[-1] / len(ref)


def np2tensor(array):
    return torch.from_numpy(np.asarray(array, dtype=np.float32))


def forward_mbr(model, feats, ref):
    ctx = model.encode(feats)
    model.eval()
    with torch.no_grad():
        hyps, scores = model.beam_search(ctx)
    model.train()
    probs = torch.softmax(np2tensor(scores), dim=-1)
    wers = np2tensor([word_errors(ref, h) for h in hyps])
    exp_wer = (probs * wers).sum()
    weights = probs * (wers - exp_wer)                    # d E[wer] / d score_n
    hyps_t = torch.tensor(hyps)
    log_probs = model.teacher_forced(ctx.expand(NBEST, -1), hyps_t)
    grad = weights[:, None, None] * torch.eye(VOCAB)[hyps_t]
    return MBR.apply(log_probs, exp_wer, grad), log_probs, hyps_t, weights


feats = torch.randn(1, 9, 8)
ref = [5, 5, 0, 0]
model = Seq2Seq()

loss, log_probs, hyps_t, weights = forward_mbr(model, feats, ref)
assert weights.abs().sum() > 0
params = list(model.parameters())
grads = torch.autograd.grad(loss, params, retain_graph=True, allow_unused=True)
seq_logp = log_probs.gather(2, hyps_t[:, :, None]).squeeze(2).sum(1)
surrogate = (weights * seq_logp).sum()
grads_ref = torch.autograd.grad(surrogate, params, allow_unused=True)
for name, g, g_ref in zip([n for n, _ in model.named_parameters()], grads, grads_ref):
    if g_ref is None:
        assert g is None, name
        continue
    assert torch.allclose(g, g_ref, atol=1e-6), name
assert grads[-2].abs().sum() > 0 and grads[0].abs().sum() > 0      # output layer and encoder
print("expected WER", round(loss.item(), 4), "- MBR gradient reaches decoder and encoder")
print("ok")
