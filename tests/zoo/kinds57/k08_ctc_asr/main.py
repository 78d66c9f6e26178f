"""
expect: GL003 asr_step.py:21
dynamic: confirm
source: none, invented

A small CTC speech recogniser (conv subsampling + bidirectional GRU) is trained on synthetic feature
sequences. The step in `asr_step.py` logs the loss with `meter.update(loss.detach_(), ...)`: `detach_`
works in place and returns the same tensor, so the loss itself is cut from the graph; backward then
raised "does not require grad", which the author silenced on the next line with
`loss.requires_grad = True`. From then on `loss.backward()` only reaches the loss leaf, so no acoustic
model parameter gets a gradient and the optimizer changes nothing. The asserts show every parameter's
`.grad` is None and the weights are identical after training, while the same step written with
`loss.detach()` for the meter (here `reference_step`) gives gradients and moves the weights.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from asr_step import AverageMeter, ctc_train_step

torch.manual_seed(0)
torch.set_num_threads(1)

N_FEATS, N_TOKENS = 16, 11  # token 0 is the CTC blank


class TinyAcousticModel(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.subsample = nn.Conv1d(N_FEATS, hidden, kernel_size=3, stride=2, padding=1)
        self.rnn = nn.GRU(hidden, hidden, batch_first=True, bidirectional=True)
        self.proj = nn.Linear(2 * hidden, N_TOKENS)

    def forward(self, feats, feat_lens):
        x = F.relu(self.subsample(feats.transpose(1, 2))).transpose(1, 2)
        x, _ = self.rnn(x)
        log_probs = self.proj(x).log_softmax(-1).transpose(0, 1)  # (T, B, C)
        return log_probs, (feat_lens + 1) // 2


def reference_step(model, optimizer, feats, feat_lens, targets, target_lens, meter):
    log_probs, out_lens = model(feats, feat_lens)
    loss = F.ctc_loss(log_probs, targets, out_lens, target_lens, blank=0, zero_infinity=True)
    meter.update(loss.detach(), feats.shape[0])
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss


def synth_batch(batch=16, frames=40, label_len=6):
    targets = torch.randint(1, N_TOKENS, (batch, label_len))
    feats = 0.5 * torch.randn(batch, frames, N_FEATS)
    seg = frames // label_len
    for b in range(batch):
        for j, tok in enumerate(targets[b]):
            feats[b, j * seg:(j + 1) * seg, tok] += 2.0
    return feats, torch.full((batch,), frames), targets, torch.full((batch,), label_len)


def train(step_fn, steps=25):
    torch.manual_seed(0)
    model = TinyAcousticModel()
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
    meter = AverageMeter()
    before = [p.detach().clone() for p in model.parameters()]
    for _ in range(steps):
        step_fn(model, optimizer, *synth_batch(), meter)
    moved = [not torch.equal(a, b) for a, b in zip(before, model.parameters())]
    return model, moved, meter.avg


if __name__ == "__main__":
    model, moved, avg = train(ctc_train_step)
    assert all(p.grad is None for p in model.parameters())
    assert not any(moved)

    model, moved, avg_ref = train(reference_step)
    assert all(p.grad is not None for p in model.parameters())
    assert all(moved)
    print(f"meter avg: in-place step {avg:.3f}, reference step {avg_ref:.3f}")
