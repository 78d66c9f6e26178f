"""
expect: none
dynamic: dismiss
source: https://www.codetd.com/en/article/16268033

Fast Gradient Method (FGM) adversarial training for a text classifier, in the form
widely copied in NLP competitions: after the clean backward, attack() saves
embedding.weight.data, adds epsilon * grad / ||grad|| to it in place through .data,
a second forward/backward on the perturbed embeddings accumulates the adversarial
gradient, restore() puts the saved tensor back through .data, and only then does
the optimizer step. The in-place .data edits look like a corrupted saved tensor,
but the clean graph has already been consumed by its backward when the weight is
perturbed, the perturbed graph is consumed before the weight is restored, and the
embedding lookup does not save the weight for its backward anyway. The asserts
check that the accumulated gradient equals the clean gradient at theta plus the
adversarial gradient at theta + r computed independently with functional_call,
that the embedding is bit-identical to its pre-attack value at optimizer time, and
that training lowers both the clean and the perturbed loss.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call

torch.manual_seed(0)
torch.set_num_threads(1)

VOCAB, DIM, SEQ, CLASSES = 50, 16, 12, 3


class TextClassifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.embedding = nn.Embedding(VOCAB, DIM)
        self.encoder = nn.Sequential(nn.Linear(DIM, 32), nn.Tanh())
        self.head = nn.Linear(32, CLASSES)

    def forward(self, tokens):
        return self.head(self.encoder(self.embedding(tokens).mean(dim=1)))


class FGM:
    def __init__(self, model, emb_name="embedding."):
        self.model = model
        self.emb_name = emb_name
        self.backup = {}

    def attack(self, epsilon=1.0):
        for name, param in self.model.named_parameters():
            if param.requires_grad and self.emb_name in name:
                self.backup[name] = param.data.clone()
                norm = torch.norm(param.grad)
                if norm != 0 and not torch.isnan(norm):
                    r_at = epsilon * param.grad / norm
                    param.data.add_(r_at)

    def restore(self):
        for name, param in self.model.named_parameters():
            if param.requires_grad and self.emb_name in name:
                assert name in self.backup
                param.data = self.backup[name]
        self.backup = {}


tokens = torch.randint(0, VOCAB, (64, SEQ))
labels = (tokens[:, :4].sum(dim=1) % CLASSES)

model = TextClassifier()
fgm = FGM(model)
opt = torch.optim.Adam(model.parameters(), lr=1e-2)

# one step, checked against an independent computation
theta = {k: v.detach().clone() for k, v in model.named_parameters()}
opt.zero_grad()
loss = F.cross_entropy(model(tokens), labels)
loss.backward()
clean_emb_grad = model.embedding.weight.grad.detach().clone()
fgm.attack(epsilon=1.0)
loss_adv = F.cross_entropy(model(tokens), labels)
loss_adv.backward()
fgm.restore()
accumulated = {k: v.grad.detach().clone() for k, v in model.named_parameters()}
assert torch.equal(model.embedding.weight.detach(), theta["embedding.weight"])

ref = {k: v.clone().requires_grad_() for k, v in theta.items()}
g_clean = torch.autograd.grad(F.cross_entropy(functional_call(model, ref, (tokens,)), labels), list(ref.values()))
shifted = dict(ref)
shifted["embedding.weight"] = ref["embedding.weight"] + clean_emb_grad / clean_emb_grad.norm()
g_adv = torch.autograd.grad(F.cross_entropy(functional_call(model, shifted, (tokens,)), labels), list(ref.values()))
for (k, _), a, b in zip(ref.items(), g_clean, g_adv):
    assert torch.allclose(accumulated[k], a + b, atol=1e-6), k
opt.step()


def perturbed_loss():
    model.zero_grad()
    l = F.cross_entropy(model(tokens), labels)
    l.backward()
    fgm.attack(epsilon=1.0)
    with torch.no_grad():
        out = F.cross_entropy(model(tokens), labels).item()
    fgm.restore()
    model.zero_grad()
    return l.item(), out


clean0, adv0 = perturbed_loss()
for _ in range(150):
    opt.zero_grad()
    F.cross_entropy(model(tokens), labels).backward()
    fgm.attack(epsilon=1.0)
    F.cross_entropy(model(tokens), labels).backward()
    fgm.restore()
    opt.step()
clean1, adv1 = perturbed_loss()
assert clean1 < clean0 and adv1 < adv0
print(f"clean loss {clean0:.3f} -> {clean1:.3f}, perturbed loss {adv0:.3f} -> {adv1:.3f}")
