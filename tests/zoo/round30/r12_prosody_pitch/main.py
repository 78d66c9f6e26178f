"""
expect: GL001 modules.py:25
dynamic: confirm
source: https://github.com/sh-lee-prml/HierSpeechpp/pull/26

A pull request to HierSpeech++ proposed detaching the tensors fed to the pitch
predictor. The maintainer declined: the prosody encoder is meant to learn speaker
pitch information from the pitch loss, and detaching the prosody embedding cuts
that path. Here the predictor detaches both its inputs (w2v features are ground
truth and detaching them is harmless; the prosody vector is not). The pitch loss,
the only loss in this stage, then leaves the prosody encoder with no gradient,
while an undetached copy of the predictor gives it one.
"""
import torch
from modules import ProsodyEncoder, PitchPredictor

torch.manual_seed(0)
torch.set_num_threads(1)

enc = ProsodyEncoder()
pitch = PitchPredictor()
opt = torch.optim.Adam(list(enc.parameters()) + list(pitch.parameters()), lr=1e-2)

ref_mel = torch.randn(4, 20, 30)
w2v = torch.randn(4, 16, 30)
f0 = torch.randn(4, 30)

w0 = enc.conv.weight.detach().clone()
for _ in range(3):
    opt.zero_grad()
    loss = torch.nn.functional.l1_loss(pitch(w2v, enc(ref_mel)), f0)
    loss.backward()
    opt.step()

assert enc.conv.weight.grad is None
assert torch.equal(enc.conv.weight, w0)          # prosody encoder never moved
assert pitch.proj.weight.grad is not None

# fixed variant: same computation without detaching the prosody vector
enc.zero_grad()
prosody = enc(ref_mel)
style = prosody.unsqueeze(2).expand(-1, -1, 30)
h = torch.relu(pitch.proj(torch.cat([w2v, style], dim=1)))
torch.nn.functional.l1_loss(pitch.out(h).squeeze(1), f0).backward()
assert enc.conv.weight.grad is not None and enc.conv.weight.grad.abs().sum() > 0
print("ok: detached prosody vector starves the prosody encoder")
