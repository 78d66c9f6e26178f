"""
expect: GL003 46
dynamic: confirm
source: https://github.com/NVIDIA/DeepLearningExamples/issues/458

A user fed precomputed encoder outputs to a Tacotron2 inference path and wanted
gradients of the mel output with respect to those encoder outputs (a PGD-style
perturbation). The inference path runs under no_grad, so the mel comes back with
requires_grad False. Here the attack helper "fixes" that by calling
requires_grad_() on the mel; backward then runs without error, but the
perturbation delta gets no gradient and never moves. Asserts compare with the
same attack run through the grad-enabled decoder.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


class TinyDecoder(nn.Module):
    def __init__(self, enc_dim=8, n_mels=10):
        super().__init__()
        self.attn = nn.Linear(enc_dim, 1)
        self.proj = nn.Linear(enc_dim, n_mels)

    def forward(self, enc_out):
        w = torch.softmax(self.attn(enc_out), dim=1)
        return self.proj(w * enc_out)

    def inference(self, enc_out):
        self.eval()
        with torch.no_grad():
            return self.forward(enc_out)


class MelAttack:
    def __init__(self, decoder, eps=0.1, step=0.02):
        self.dec, self.eps, self.step = decoder, eps, step

    def run(self, enc_out, target_mel, iters=5, use_inference=True):
        delta = torch.zeros_like(enc_out, requires_grad=True)
        for _ in range(iters):
            mel = self.dec.inference(enc_out + delta) if use_inference else self.dec(enc_out + delta)
            if not mel.requires_grad:
                mel.requires_grad_()
            loss = -((mel - target_mel) ** 2).mean()
            loss.backward()
            if delta.grad is not None:
                with torch.no_grad():
                    delta -= self.step * delta.grad.sign()
                    delta.clamp_(-self.eps, self.eps)
                delta.grad = None
        return delta.detach()


dec = TinyDecoder()
for p in dec.parameters():
    p.requires_grad_(False)
enc_out = torch.randn(2, 7, 8)
target = torch.randn(2, 7, 10)

attack = MelAttack(dec)
delta_bad = attack.run(enc_out, target, use_inference=True)
assert torch.count_nonzero(delta_bad) == 0           # perturbation never moved

delta_ok = attack.run(enc_out, target, use_inference=False)
assert torch.count_nonzero(delta_ok) > 0
assert delta_ok.abs().max() <= 0.1 + 1e-6
print("ok: requires_grad_ on a no_grad output leaves the perturbation untouched")
