"""
expect: none
dynamic: dismiss
source: https://github.com/SpeakerRecognizer/VoicePersonification/blob/8f3d6d30b6d061294062b7d44fbd328072d743f5/VoicePersonification/models/wav2vec_bert.py

The speaker-verification model in VoicePersonification trains its embeddings with a CurricularFace
additive-angular-margin head. In the head, cos_theta is clamped and then edited in place twice:
hard negatives are rescaled with cos_theta[mask] = ..., and the target column is overwritten with
cos_theta.scatter_(...). Around it, origin_cos = cos_theta.clone() is taken under torch.no_grad()
for logging, and the curriculum statistic self.t is an exponential moving average updated under
no_grad. All of this looks like the classic "modified by an inplace operation" trap or a cut graph,
but it is sound: clamp's backward needs its input, not its output, so editing the clamped result
is allowed; the gathered target logit and the hard examples are copies made by indexing; and t and
origin_cos are meant to carry no gradient. This program trains a toy x-vector style embedder with
that head on synthetic speaker features. The asserts check that the in-place head gives the same
gradients as an out-of-place rewrite, that origin_cos has no history, that t moves, that training
lowers the loss, and that held-out embeddings separate same-speaker from different-speaker pairs.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

N_SPK, FEAT, FRAMES, EMB = 6, 12, 20, 16


class CurricularAAM(nn.Module):
    def __init__(self, in_features, out_features, m=0.35, s=16.0):
        super().__init__()
        self.s = s
        self.cos_m, self.sin_m = math.cos(m), math.sin(m)
        self.threshold = math.cos(math.pi - m)
        self.mm = math.sin(math.pi - m) * m
        self.kernel = nn.Parameter(torch.randn(in_features, out_features) * 0.01)
        self.register_buffer("t", torch.zeros(1))

    def forward(self, embeddings, label):
        cos_theta = torch.mm(F.normalize(embeddings, dim=1), F.normalize(self.kernel, dim=0))
        cos_theta = cos_theta.clamp(-1, 1)
        with torch.no_grad():
            origin_cos = cos_theta.clone()
        target_logit = cos_theta[torch.arange(0, embeddings.size(0)), label].view(-1, 1)
        sin_theta = torch.sqrt(1.0 - torch.pow(target_logit, 2))
        cos_theta_m = target_logit * self.cos_m - sin_theta * self.sin_m
        mask = cos_theta > cos_theta_m
        final_target_logit = torch.where(target_logit > self.threshold, cos_theta_m, target_logit - self.mm)
        hard_example = cos_theta[mask]
        with torch.no_grad():
            self.t = target_logit.mean() * 0.01 + (1 - 0.01) * self.t
        cos_theta[mask] = hard_example * (self.t + hard_example)
        cos_theta.scatter_(1, label.view(-1, 1).long(), final_target_logit)
        return cos_theta * self.s, origin_cos * self.s


def reference_logits(head, embeddings, label, t):
    cos = torch.mm(F.normalize(embeddings, dim=1), F.normalize(head.kernel, dim=0)).clamp(-1, 1)
    tl = cos.gather(1, label.view(-1, 1))
    ctm = tl * head.cos_m - torch.sqrt(1.0 - tl ** 2) * head.sin_m
    ftl = torch.where(tl > head.threshold, ctm, tl - head.mm)
    out = torch.where(cos > ctm, cos * (t + cos), cos)
    onehot = F.one_hot(label, cos.shape[1]).bool()
    return torch.where(onehot, ftl.expand_as(cos), out) * head.s


class XVector(nn.Module):
    def __init__(self):
        super().__init__()
        self.frame = nn.Sequential(nn.Conv1d(FEAT, 32, 3, padding=1), nn.ReLU(), nn.Conv1d(32, 32, 1), nn.ReLU())
        self.segment = nn.Linear(64, EMB)

    def forward(self, x):
        h = self.frame(x)
        return self.segment(torch.cat((h.mean(-1), h.std(-1)), 1))


protos = torch.randn(N_SPK, FEAT)


def utterances(n_per, seed):
    g = torch.Generator().manual_seed(seed)
    labels = torch.arange(N_SPK).repeat_interleave(n_per)
    x = protos[labels].unsqueeze(-1) + 1.2 * torch.randn(len(labels), FEAT, FRAMES, generator=g)
    return x, labels


x_tr, y_tr = utterances(20, 1)
x_te, y_te = utterances(10, 2)

model, head = XVector(), CurricularAAM(EMB, N_SPK)

# in-place head == out-of-place rewrite, gradient for gradient
emb = model(x_tr[:24])
t_before = head.t.clone()
logits, origin = head(emb, y_tr[:24])
assert origin.grad_fn is None
g_inplace = torch.autograd.grad(F.cross_entropy(logits, y_tr[:24]), [head.kernel, model.segment.weight])
emb = model(x_tr[:24])
ref = reference_logits(head, emb, y_tr[:24], head.t)
g_ref = torch.autograd.grad(F.cross_entropy(ref, y_tr[:24]), [head.kernel, model.segment.weight])
for a, b in zip(g_inplace, g_ref):
    assert torch.allclose(a, b, atol=1e-6)

opt = torch.optim.Adam(list(model.parameters()) + list(head.parameters()), lr=5e-3)
losses = []
for step in range(150):
    opt.zero_grad()
    logits, _ = head(model(x_tr), y_tr)
    loss = F.cross_entropy(logits, y_tr)
    loss.backward()
    opt.step()
    losses.append(loss.item())
assert not torch.equal(head.t, t_before)
assert losses[-1] < 0.5 * losses[0], (losses[0], losses[-1])

with torch.no_grad():
    e = F.normalize(model(x_te), dim=1)
    sim = e @ e.t()
    same = y_te[:, None] == y_te[None, :]
    off = ~torch.eye(len(y_te), dtype=torch.bool)
    pos, neg = sim[same & off], sim[~same]
    auc = (pos[:, None] > neg[None, :]).float().mean().item()
assert auc > 0.95, auc
print("ok: CurricularFace in-place head trains; verification AUC", round(auc, 3))
