"""
expect: GL001 asr_brain.py:34
dynamic: confirm
source: https://github.com/speechbrain/speechbrain/issues/1077

A reader of a LibriSpeech wav2vec 2.0 CTC recipe noticed that the wav2vec output was
detached in compute_forward, so no gradient reached the wav2vec module even though
the yaml set freeze=False and a separate wav2vec optimizer was stepped every batch.
This program keeps that structure (a Brain-like trainer with two optimizers) and
detaches the front-end features. The asserts show the wav2vec weights never receive
a gradient and stay identical after training, while the encoder/CTC head do learn;
without the detach the wav2vec weights move.
"""
import torch
from asr_brain import ASRBrain

torch.set_num_threads(1)


class FixedBrain(ASRBrain):
    def compute_forward(self, wavs):
        x, _ = self.enc(self.wav2vec(wavs))
        return torch.log_softmax(self.ctc_lin(x), dim=-1)


def batch(n=3, samples=200):
    wavs = torch.randn(n, samples)
    tokens = torch.randint(1, 6, (n, 5))
    return wavs, tokens, torch.full((n,), 5, dtype=torch.long)


def run(brain, steps=4):
    w0 = [p.detach().clone() for p in brain.wav2vec.parameters()]
    h0 = brain.ctc_lin.weight.detach().clone()
    # probe: one backward to see which parts receive a gradient
    wavs, tokens, lens = batch()
    brain.compute_objectives(brain.compute_forward(wavs), tokens, lens).backward()
    saw_grad = any(p.grad is not None for p in brain.wav2vec.parameters())
    brain.wav2vec_opt.zero_grad(); brain.model_opt.zero_grad()
    for _ in range(steps):
        brain.fit_batch(*batch())
    w_moved = any(not torch.equal(a, b) for a, b in zip(w0, brain.wav2vec.parameters()))
    return saw_grad, w_moved, not torch.equal(h0, brain.ctc_lin.weight)


torch.manual_seed(0)
saw_grad, w_moved, head_moved = run(ASRBrain())
assert not saw_grad, "wav2vec got a gradient despite the detach"
assert not w_moved, "wav2vec weights changed"
assert head_moved, "the CTC head should still learn"

torch.manual_seed(0)
saw_grad, w_moved, head_moved = run(FixedBrain())
assert saw_grad and w_moved and head_moved
print("p02 ok: detached wav2vec features starve the fine-tuned front end")
