"""
expect: none
dynamic: dismiss
source: https://github.com/p0p4k/vits2_pytorch/issues/21

VITS-style duration training: the monotonic alignment search runs under
torch.no_grad() and its hard path gives the target log-durations logw_, which are
detached by construction. Someone asked whether the target should stay attached;
the answer was no: only the predicted logw should carry gradient. The duration
predictor and the text encoder both train through logw; the asserts check that,
and that the alignment target indeed carries no graph.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


class TextEncoder(nn.Module):
    def __init__(self, vocab=12, dim=8):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.proj = nn.Linear(dim, dim)

    def forward(self, tokens):
        return torch.tanh(self.proj(self.emb(tokens)))


def hard_alignment(h_text, z_frames):
    # stand-in for MAS: each frame picks its most similar token
    with torch.no_grad():
        sim = z_frames @ h_text.transpose(1, 2)           # B x frames x tokens
        path = nn.functional.one_hot(sim.argmax(-1), h_text.size(1)).float()
    return path


enc = TextEncoder()
dur = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 1))
opt = torch.optim.Adam(list(enc.parameters()) + list(dur.parameters()), lr=1e-2)
tokens = torch.randint(0, 12, (3, 6))
frames = torch.randn(3, 20, 8)

e0 = enc.proj.weight.detach().clone()
for _ in range(3):
    opt.zero_grad()
    h = enc(tokens)
    path = hard_alignment(h, frames)
    logw_ = torch.log(path.sum(1) + 1)                      # target, no graph
    logw = dur(h).squeeze(-1)
    loss = ((logw - logw_) ** 2).mean()
    loss.backward()
    opt.step()

assert logw_.grad_fn is None and not logw_.requires_grad
assert dur[0].weight.grad is not None and dur[0].weight.grad.abs().sum() > 0
assert enc.proj.weight.grad is not None and not torch.equal(enc.proj.weight, e0)
print("ok: no_grad alignment target, trainable prediction")
