"""
expect: GL001 43
dynamic: confirm
source: kind A

A toy spectrogram enhancer (generator) is trained with an L1 reconstruction
term plus an adversarial term from a discriminator; each model has its own
optimizer. The adversarial term of the enhancer's loss is computed on a
detached copy of the enhanced output, so only the L1 term reaches the enhancer.
Asserts: the enhancer's gradient equals that of the L1 term alone (the
adversarial term adds nothing), while the fixed version's gradient differs.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(1)

enhancer = nn.Sequential(nn.Linear(20, 32), nn.Tanh(), nn.Linear(32, 20))
judge = nn.Sequential(nn.Linear(20, 24), nn.ReLU(), nn.Linear(24, 1))
opt_enh = torch.optim.SGD(enhancer.parameters(), lr=0.05)
opt_judge = torch.optim.SGD(judge.parameters(), lr=0.05)

noisy = torch.randn(16, 20)
clean = noisy * 0.5 + 0.1


def grads_of(model):
    return [p.grad.detach().clone() for p in model.parameters()]


# judge step
opt_judge.zero_grad()
out = enhancer(noisy).detach()
d_loss = F.softplus(-judge(clean)).mean() + F.softplus(judge(out)).mean()
d_loss.backward()
opt_judge.step()

# enhancer step
opt_enh.zero_grad()
enhanced = enhancer(noisy)
recon = F.l1_loss(enhanced, clean)
adv_score = judge(enhanced.detach())
adv = F.softplus(-adv_score).mean()
g_loss = recon + 0.1 * adv
g_loss.backward()
g_with_adv = grads_of(enhancer)
opt_enh.step()

# reference: L1 term alone, at the same starting weights
torch.manual_seed(1)
enhancer2 = nn.Sequential(nn.Linear(20, 32), nn.Tanh(), nn.Linear(32, 20))
F.l1_loss(enhancer2(noisy), clean).backward()
g_recon_only = grads_of(enhancer2)
assert all(torch.allclose(a, b) for a, b in zip(g_with_adv, g_recon_only))

# fixed: adversarial term attached
enhancer2.zero_grad()
e2 = enhancer2(noisy)
fixed_loss = F.l1_loss(e2, clean) + 0.1 * F.softplus(-judge(e2)).mean()
fixed_loss.backward()
g_fixed = grads_of(enhancer2)
assert any(not torch.allclose(a, b) for a, b in zip(g_fixed, g_recon_only))
print("ok: adversarial term gives the enhancer no gradient; fixed version does")
