"""
expect: GL003 43
dynamic: confirm
source: none, invented

A speaker-ID classifier with an additive-margin softmax: the forward takes the labels,
subtracts a margin from the target-class logit and returns `(logits, acc)`. The author
edited the margined logits on `cos.data` so the in-place scatter would not upset autograd,
got "element 0 of tensors does not require grad" at backward, and silenced it with
`logits.requires_grad_()`. The training loop unpacks `logits, _ = model(x, y)` and
backpropagates cross-entropy on those logits, which are now a fresh leaf: backward runs,
but no gradient reaches the encoder or the class weights. The asserts show the encoder and
class weights have `.grad is None` and are unchanged after several steps; the fixed variant
(margin applied out of place on the attached cosine) trains both.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class SpeakerNet(nn.Module):
    def __init__(self, n_feats=40, dim=32, n_speakers=8, margin=0.2, scale=16.0, fixed=False):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(n_feats, 64), nn.ReLU(), nn.Linear(64, dim))
        self.class_w = nn.Parameter(torch.randn(n_speakers, dim) * 0.1)
        self.margin = margin
        self.scale = scale
        self.fixed = fixed

    def forward(self, frames, labels):
        emb = F.normalize(self.encoder(frames).mean(dim=1), dim=1)
        cos = emb @ F.normalize(self.class_w, dim=1).t()
        onehot = F.one_hot(labels, cos.size(1)).float()
        if self.fixed:
            logits = self.scale * (cos - self.margin * onehot)
        else:
            logits = cos.data.clone()
            logits.scatter_add_(1, labels[:, None], torch.full_like(labels[:, None], -self.margin, dtype=cos.dtype))
            logits.mul_(self.scale)
            logits.requires_grad_()
        acc = (cos.argmax(1) == labels).float().mean()
        return logits, acc


def train(fixed):
    torch.manual_seed(0)
    model = SpeakerNet(fixed=fixed)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    enc_before = model.encoder[0].weight.detach().clone()
    cls_before = model.class_w.detach().clone()
    for _ in range(5):
        x = torch.randn(8, 20, 40)
        y = torch.randint(0, 8, (8,))
        logits, _ = model(x, y)
        loss = F.cross_entropy(logits, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    return model, enc_before, cls_before


model, enc_before, cls_before = train(fixed=False)
assert model.encoder[0].weight.grad is None
assert model.class_w.grad is None
assert torch.equal(model.encoder[0].weight, enc_before)
assert torch.equal(model.class_w, cls_before)

model, enc_before, cls_before = train(fixed=True)
assert model.encoder[0].weight.grad.abs().sum() > 0
assert not torch.equal(model.class_w, cls_before)
print("ok")
