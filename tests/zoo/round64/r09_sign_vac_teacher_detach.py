"""
expect: none
dynamic: dismiss
source: https://github.com/ppoitier/sign-language-processing/blob/bb84171768c1d9a0d30c21b86e262921b21d6137/slp/nn/losses/vac.py#L67-L98

Visual Alignment Constraint loss for continuous sign language recognition
(Min et al., ICCV 2021) in a sign-language-processing toolkit: CTC on the
contextual logits, CTC on auxiliary visual logits, plus a distillation term
in which the contextual logits are the teacher, taken with zc.detach().  The
detach looks like a cut that could leave the contextual BiLSTM untrained, but
it is the intended stop-gradient: the teacher is still trained by its own CTC
term, and the distillation term only pulls the visual branch towards it.
The program builds a tiny frame encoder, visual head, BiLSTM context and
gloss head, and trains with the same three-term loss on random "videos".
The asserts check that the distillation term alone gives no gradient to the
contextual part and a non-zero one to the visual part, that the full loss
reaches every module, and that all modules change over a few steps.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

N, T, D, C = 2, 12, 10, 6          # batch, frames, frame features, glosses + blank


class CSLRModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.frame_enc = nn.Conv1d(D, 16, 3, padding=1)
        self.visual_head = nn.Conv1d(16, C, 1)
        self.context = nn.LSTM(16, 8, batch_first=True, bidirectional=True)
        self.gloss_head = nn.Linear(16, C)

    def forward(self, video):                          # video: (N, D, T)
        feats = F.relu(self.frame_enc(video))          # (N, 16, T)
        visual_logits = self.visual_head(feats)        # (N, C, T)
        ctx, _ = self.context(feats.transpose(1, 2))
        context_logits = self.gloss_head(ctx).transpose(1, 2)
        return visual_logits, context_logits


def vac_loss(visual_logits, context_logits, lengths, glosses, gloss_lengths,
             alpha=25.0, tau=8.0):
    ctc = nn.CTCLoss(blank=0, zero_infinity=True)
    zv = visual_logits.permute(2, 0, 1)
    zc = context_logits.permute(2, 0, 1)
    l_ctc = ctc(zc.log_softmax(-1), glosses, lengths, gloss_lengths)
    l_ve = ctc(zv.log_softmax(-1), glosses, lengths, gloss_lengths)
    teacher = zc.detach()
    log_p_student = (zv / tau).log_softmax(-1)
    p_teacher = (teacher / tau).softmax(-1)
    l_va = F.kl_div(log_p_student, p_teacher, reduction="none").sum(-1).mean() * tau ** 2
    return l_ctc, l_ve, alpha * l_va


model = CSLRModel()
video = torch.randn(N, D, T)
lengths = torch.full((N,), T, dtype=torch.long)
glosses = torch.randint(1, C, (N, 4))
gloss_lengths = torch.full((N,), 4, dtype=torch.long)
context_params = list(model.context.parameters()) + list(model.gloss_head.parameters())
visual_params = list(model.frame_enc.parameters()) + list(model.visual_head.parameters())

l_ctc, l_ve, l_va = vac_loss(*model(video), lengths, glosses, gloss_lengths)
g_va = torch.autograd.grad(l_va, context_params + visual_params, allow_unused=True, retain_graph=True)
assert all(g is None or g.abs().sum() == 0 for g in g_va[:len(context_params)])
assert sum(g.abs().sum().item() for g in g_va[len(context_params):] if g is not None) > 0

model.zero_grad()
(l_ctc + l_ve + l_va).backward()
assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in model.parameters())

opt = torch.optim.Adam(model.parameters(), lr=1e-2)
before = [p.detach().clone() for p in model.parameters()]
for _ in range(5):
    l_ctc, l_ve, l_va = vac_loss(*model(video), lengths, glosses, gloss_lengths)
    opt.zero_grad()
    (l_ctc + l_ve + l_va).backward()
    opt.step()
assert all(not torch.equal(b, p) for b, p in zip(before, model.parameters()))
