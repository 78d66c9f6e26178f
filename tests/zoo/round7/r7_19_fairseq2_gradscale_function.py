"""expect: none
dynamic: dismiss
source: https://github.com/facebookresearch/fairseq2/pull/733

Look-alike. fairseq2 scales the gradient that flows back into the wav2vec2
convolutional feature extractor with a custom autograd Function whose forward
returns `x.detach().clone().requires_grad_(True)` and whose backward returns
`grad_output * ctx.scale`. A reviewer of the pull request asked whether the
detach/clone removes x from the graph. Inside Function.forward that is
harmless: apply() attaches the Function's own backward node to the output,
so the gradient reaches the feature extractor, just scaled. The same pull
request also logs `loss.detach()` into a metric bag, which only feeds
metrics. Both pieces are correct.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.autograd import Function


class _GradientScaleFunction(Function):
    @staticmethod
    def forward(ctx, x, scale):
        ctx.scale = scale
        return x.detach().clone().requires_grad_(True)

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output * ctx.scale, None


def scale_gradient(x, scale):
    return _GradientScaleFunction.apply(x, scale)


class TinyWav2Vec2(nn.Module):
    def __init__(self, dim=16, vocab=6, grad_scale=0.1):
        super().__init__()
        self.feature_extractor = nn.Sequential(nn.Conv1d(1, dim, 10, stride=5), nn.GELU(),
                                               nn.Conv1d(dim, dim, 3, stride=2), nn.GELU())
        self.grad_scale = grad_scale
        self.encoder = nn.GRU(dim, dim, batch_first=True)
        self.final_proj = nn.Linear(dim, vocab)

    def forward(self, wav):
        feats = self.feature_extractor(wav.unsqueeze(1)).transpose(1, 2)
        if self.grad_scale != 1.0:
            feats = scale_gradient(feats, self.grad_scale)
        h, _ = self.encoder(feats)
        return F.log_softmax(self.final_proj(h), -1)


class MetricBag:
    def __init__(self):
        self.ctc = []

    def update_ctc_loss(self, loss):
        self.ctc.append(loss)


def asr_step(model, optimizer, bag, wav, targets, target_lens):
    log_probs = model(wav).transpose(0, 1)                     # (T, B, V)
    input_lens = torch.full((wav.shape[0],), log_probs.shape[0], dtype=torch.long)
    loss = F.ctc_loss(log_probs, targets, input_lens, target_lens, blank=0)
    bag.update_ctc_loss(loss.detach())
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss


torch.manual_seed(0)
wav, targets = torch.randn(2, 400), torch.randint(1, 6, (2, 5))
target_lens = torch.tensor([5, 4])

scaled = TinyWav2Vec2(grad_scale=0.1)
plain = TinyWav2Vec2(grad_scale=1.0)
plain.load_state_dict(scaled.state_dict())
bag = MetricBag()
asr_step(scaled, torch.optim.SGD(scaled.parameters(), lr=0.0), bag, wav, targets, target_lens)
asr_step(plain, torch.optim.SGD(plain.parameters(), lr=0.0), bag, wav, targets, target_lens)

for (name, ps), pp in zip(scaled.named_parameters(), plain.parameters()):
    assert ps.grad is not None and ps.grad.abs().sum() > 0, name
    factor = 0.1 if name.startswith("feature_extractor") else 1.0
    assert torch.allclose(ps.grad, factor * pp.grad, atol=1e-6), name
assert all(not m.requires_grad for m in bag.ctc)
print("OK")
