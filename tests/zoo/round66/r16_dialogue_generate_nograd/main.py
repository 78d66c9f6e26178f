"""
expect: GL001 main.py:57
dynamic: confirm
source: https://github.com/huggingface/transformers/issues/3720

Dialogue response generation. The trainer mixes the usual MLE loss on gold responses
with a policy-gradient term that should push the generator towards responses a reward
function likes (here: responses that avoid the dull token). It samples responses with
the model's `generate()` and uses the returned sequence scores as log-probabilities in
the REINFORCE term. But `generate()` is decorated with `@torch.no_grad()` (as in
transformers, the thread asks how to disable it), so the scores carry no graph: the
reward term adds nothing and the update equals the MLE update alone. The asserts show
that the parameter gradient with the RL term is identical to the MLE-only gradient and
that the rate of dull tokens does not move, while the fixed trainer (re-scoring the
sampled responses with the differentiable teacher-forced `sequence_logprob`) changes the
gradient and lowers the dull-token rate.
"""
import torch

from dialogue_model import ResponseGenerator

torch.manual_seed(0)
torch.set_num_threads(1)

VOCAB, CTX_LEN, RESP_LEN, B = 16, 5, 6, 32
DULL = 3  # the "I don't know" token


def batch():
    ctx = torch.randint(4, VOCAB, (B, CTX_LEN))
    gold = torch.randint(2, VOCAB, (B, RESP_LEN))
    gold = torch.where(torch.rand(B, RESP_LEN) < 0.4, torch.full_like(gold, DULL), gold)  # dull corpus
    return ctx, gold


def reward(resp):
    return 1.0 - (resp == DULL).float().mean(1)


def dull_rate(model):
    torch.manual_seed(123)
    ctx, _ = batch()
    resp, _ = model.generate(ctx, max_new_tokens=RESP_LEN)
    return (resp == DULL).float().mean().item()


def init_model():
    torch.manual_seed(7)
    m = ResponseGenerator(VOCAB)
    with torch.no_grad():
        m.lm_head.bias[DULL] += 2.5          # pretrained chatbot that loves the dull answer
    return m


def rl_step(model, ctx, gold, rescore):
    mle = model.mle_loss(ctx, gold)
    responses, seq_scores = model.generate(ctx, max_new_tokens=RESP_LEN)
    if rescore:
        seq_scores = model.sequence_logprob(ctx, responses)
    r = reward(responses)
    pg = -((r - r.mean()) * seq_scores).mean()
    return mle + 2.0 * pg, mle


def grads(model, loss):
    model.zero_grad()
    loss.backward()
    return torch.cat([p.grad.flatten() for p in model.parameters()])


# buggy default path: scores from generate() carry no graph
model = init_model()
torch.manual_seed(1)
ctx, gold = batch()
loss, mle = rl_step(model, ctx, gold, rescore=False)
g_total = grads(model, loss)
model2 = init_model()
g_mle = grads(model2, model2.mle_loss(ctx, gold))
assert torch.allclose(g_total, g_mle), "RL term contributed gradient?"


def train(rescore, steps=60):
    m = init_model()
    opt = torch.optim.Adam(m.parameters(), lr=5e-3)
    before = dull_rate(m)
    torch.manual_seed(2)
    for _ in range(steps):
        c, g = batch()
        l, _ = rl_step(m, c, g, rescore)
        opt.zero_grad()
        l.backward()
        opt.step()
    return before, dull_rate(m)


b0, a0 = train(rescore=False)
b1, a1 = train(rescore=True)
assert a1 < a0 - 0.1, (a0, a1)
print("dull-token rate: generate() scores %.3f -> %.3f ; re-scored %.3f -> %.3f" % (b0, a0, b1, a1))
