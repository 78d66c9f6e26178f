"""
expect: GL002 orchestrator.py:41
dynamic: confirm
source: https://github.com/dylanlo8/ASR/blob/main/Orchestrator.py

The repository's Lightning module computed the cross-entropy of an audio-to-text adaptor and then
returned `torch.tensor(loss.item(), requires_grad=True)`, presumably to get past the
"does not require grad" error. This program keeps that loss method in orchestrator.py and drives it
from a small manual training loop. The rebuilt loss is a fresh leaf, so the adaptor's weight.grad
stays None and its values never change across steps, while returning the original loss tensor
trains the adaptor.
"""
import torch

from orchestrator import LightningTranslator

torch.manual_seed(0)


def make_batch(n=8, frames=5, audio_dim=20, vocab=30):
    audio = torch.randn(n, frames, audio_dim)
    labels = torch.randint(1, vocab, (n, frames + 2))
    return audio, labels


def fit(module, batches):
    opt = module.configure_optimizers()
    losses = []
    for batch in batches:
        opt.zero_grad()
        loss = module.training_step(batch)
        loss.backward()
        opt.step()
        losses.append(loss.detach().item())
    return losses


batches = [make_batch() for _ in range(6)]

translator = LightningTranslator()
w_before = translator.model.adaptor.weight.detach().clone()
fit(translator, batches)
assert translator.model.adaptor.weight.grad is None, "adaptor receives no gradient"
assert torch.equal(w_before, translator.model.adaptor.weight.detach()), "adaptor never updates"


class PlainLossTranslator(LightningTranslator):
    def calculate_loss(self, logits, labels):
        steps = min(logits.shape[1], labels.shape[1])
        return torch.nn.functional.cross_entropy(
            logits[:, :steps].reshape(-1, logits.shape[-1]), labels[:, :steps].reshape(-1))


torch.manual_seed(0)
reference = PlainLossTranslator()
r_before = reference.model.adaptor.weight.detach().clone()
fit(reference, batches)
assert reference.model.adaptor.weight.grad is not None
assert not torch.equal(r_before, reference.model.adaptor.weight.detach())
print("ok: torch.tensor(loss.item()) cuts the adaptor out of training")
