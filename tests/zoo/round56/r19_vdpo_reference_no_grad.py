"""
expect: none
dynamic: dismiss
source: https://github.com/YuxiXie/V-DPO/blob/ed27c326cc5003a5a3885a8b3b84ced5a1e317c3/llava_dpo/train/llava_trainer.py#L620-L746

V-DPO's trainer for vision-language DPO computes the policy's sequence
log-probs with gradients. The frozen reference model's log-probs, and the
policy's log-probs for the same answers paired with a random image, are
computed under `torch.no_grad()`, and the random-image log-probs are also
`.detach()`ed. From these it builds a per-sample importance weight,
`coeff *= (coef1 + coef2).clamp(-1, 1).exp().detach()`, multiplies the DPO
loss by it, and logs the rewards as `beta * log_ratio.detach()`. All these
cuts are intended: the reference is a fixed anchor, the random-image pass
only measures how much the answer depends on the image, the weight must act
as a constant per-sample scale (not something the policy can shrink to lower
its loss), and the logged rewards are metrics. The program mirrors that
structure with a tiny image-conditioned token model. The asserts show that
the reference gets no gradient and stays unchanged, that the gradient equals
that of the DPO loss scaled by the constant weights, that the logged rewards
carry no graph, and that training raises the preference margin and accuracy.
"""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

VOCAB, LEN, DIM, B = 8, 6, 10, 16
BETA = 0.5


class TinyVLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.img_proj = nn.Linear(DIM, 16)
        self.pos = nn.Parameter(0.1 * torch.randn(LEN, 16))
        self.head = nn.Linear(16, VOCAB)

    def forward(self, images):
        h = torch.tanh(self.img_proj(images)[:, None, :] + self.pos[None])
        return self.head(h)


def seq_log_probs(model, images, answers):
    logp = torch.log_softmax(model(images), -1)
    return logp.gather(-1, answers[..., None])[..., 0].sum(-1)


policy = TinyVLM()
reference = copy.deepcopy(policy).requires_grad_(False)
opt = torch.optim.Adam(policy.parameters(), lr=0.02)

mapping = torch.randn(DIM, LEN, VOCAB)
images = torch.randn(64, DIM)
better = torch.einsum("nd,dlv->nlv", images, mapping).argmax(-1)   # answers grounded in the image
worse = torch.randint(0, VOCAB, better.shape)


def train_step(idx):
    img, good, bad = images[idx], better[idx], worse[idx]
    rand_img = torch.randn_like(img)

    better_lp = seq_log_probs(policy, img, good)
    worse_lp = seq_log_probs(policy, img, bad)
    with torch.no_grad():
        ref_better_lp = seq_log_probs(reference, img, good)
        ref_worse_lp = seq_log_probs(reference, img, bad)
        rand_better_lp = seq_log_probs(policy, rand_img, good)
        rand_worse_lp = seq_log_probs(policy, rand_img, bad)
    rand_better_lp = rand_better_lp.detach()

    better_log_ratio = better_lp - ref_better_lp
    worse_log_ratio = worse_lp - ref_worse_lp
    logits = better_log_ratio - worse_log_ratio

    coef1 = (better_lp - rand_better_lp) / LEN          # how much the image supports the good answer
    coef2 = (rand_worse_lp - worse_lp) / LEN            # and argues against the bad one
    coeff = torch.ones(len(idx))
    coeff *= (coef1 + coef2).clamp(-1, 1).exp().detach()

    loss = (coeff * -F.logsigmoid(BETA * logits)).mean()
    better_rewards = BETA * better_log_ratio.detach()
    worse_rewards = BETA * worse_log_ratio.detach()
    return loss, logits, coeff, better_rewards, worse_rewards


# 1) gradient = gradient of the DPO loss weighted by constant coefficients
idx = torch.arange(B)
loss, logits, coeff, br, wr = train_step(idx)
assert not coeff.requires_grad and not br.requires_grad and not wr.requires_grad
g = torch.autograd.grad(loss, list(policy.parameters()), retain_graph=True)
g_ref = torch.autograd.grad((coeff * -F.logsigmoid(BETA * logits)).mean(),
                            list(policy.parameters()))
for a, b in zip(g, g_ref):
    assert torch.allclose(a, b) and a.abs().sum() > 0

# 2) training
ref_state = copy.deepcopy(reference.state_dict())
with torch.no_grad():
    margin0 = (seq_log_probs(policy, images, better) - seq_log_probs(policy, images, worse)).mean().item()
for step in range(150):
    idx = torch.randint(0, len(images), (B,))
    opt.zero_grad()
    loss, _, _, br, wr = train_step(idx)
    loss.backward()
    opt.step()
assert all(p.grad is None for p in reference.parameters())
assert all(torch.equal(v, reference.state_dict()[k]) for k, v in ref_state.items())
with torch.no_grad():
    diff = seq_log_probs(policy, images, better) - seq_log_probs(policy, images, worse)
acc = (diff > 0).float().mean().item()
assert diff.mean().item() > margin0 + 5.0 and acc > 0.9, (margin0, diff.mean().item(), acc)
print("preference margin %.2f -> %.2f, accuracy %.2f" % (margin0, diff.mean().item(), acc))
