"""
expect: GL001 model.py:40
dynamic: confirm
source: https://github.com/Impavidity/relogic/pull/6

Language-adversarial training of a multitask text encoder: a discriminator learns to tell
source-language sentence features from target-language ones, and the encoder (the
"generator") is trained on its supervised task plus a loss that tries to fool the
discriminator. The target-language batch carries no labels, and the model's forward()
treats every label-free call like an evaluation pass and returns `logits.detach()`
(model.py). So the half of the generator's adversarial loss computed on target sentences
is cut from the encoder: only the source half reaches it, and the encoder is never pushed
to move target features toward the source ones. The asserts show that the target term
gives the encoder no gradient at all (autograd.grad returns None for every encoder
parameter), that one generator step leaves the encoder gradients identical to a step
without that term, and that the attached features (what the fix returns) do carry it.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from model import MultitaskModel


class AdversarialTrainer:
    def __init__(self, model, dim=16, lr=1e-2):
        self.model = model
        self.discriminator = nn.Linear(dim, 1)
        self.opt_gen = torch.optim.SGD(model.parameters(), lr=lr)
        self.opt_dis = torch.optim.SGD(self.discriminator.parameters(), lr=lr)

    def dis_loss(self, src_feats, tgt_feats, src_label, tgt_label):
        src_out = self.discriminator(src_feats)
        tgt_out = self.discriminator(tgt_feats)
        return (F.binary_cross_entropy_with_logits(src_out, torch.full_like(src_out, src_label))
                + F.binary_cross_entropy_with_logits(tgt_out, torch.full_like(tgt_out, tgt_label)))

    def train_discriminator(self, src_ids, tgt_ids):
        with torch.no_grad():
            src = self.model.encoder(src_ids)
            tgt = self.model.encoder(tgt_ids)
        loss = self.dis_loss(src, tgt, 1.0, 0.0)
        self.opt_dis.zero_grad()
        loss.backward()
        self.opt_dis.step()
        return loss.item()

    def generator_losses(self, src_ids, src_labels, tgt_ids):
        labeled = self.model(src_ids, "retrieval,lang_id", label_ids=src_labels)
        unlabeled = self.model(tgt_ids, "lang_id")
        sup_loss = labeled["retrieval"]["loss"]
        # flipped labels: the generator wants the discriminator to confuse the languages
        adv_loss = self.dis_loss(labeled["lang_id"]["logits"], unlabeled["lang_id"]["logits"], 0.0, 1.0)
        return sup_loss, adv_loss, unlabeled["lang_id"]["logits"]

    def train_generator(self, src_ids, src_labels, tgt_ids):
        sup_loss, adv_loss, _ = self.generator_losses(src_ids, src_labels, tgt_ids)
        loss = sup_loss + adv_loss
        self.opt_gen.zero_grad()
        loss.backward()
        grads = {n: p.grad.clone() for n, p in self.model.encoder.named_parameters()}
        self.opt_gen.step()
        return grads


def encoder_grads(loss, encoder):
    return torch.autograd.grad(loss, list(encoder.parameters()), allow_unused=True, retain_graph=True)


torch.manual_seed(0)
torch.set_num_threads(1)
model = MultitaskModel()
trainer = AdversarialTrainer(model)
src_ids = torch.randint(0, 20, (8, 6))
tgt_ids = torch.randint(20, 40, (8, 6))
src_labels = torch.randint(0, 3, (8,))

for _ in range(3):
    trainer.train_discriminator(src_ids, tgt_ids)

# 1) the target-language half of the generator's adversarial loss, as the trainer builds it
_, _, tgt_logits = trainer.generator_losses(src_ids, src_labels, tgt_ids)
tgt_term = F.binary_cross_entropy_with_logits(trainer.discriminator(tgt_logits),
                                              torch.ones(8, 1))
grads = encoder_grads(tgt_term, model.encoder)
assert all(g is None for g in grads), "target-language term should not reach the encoder"

# 2) a full generator step: encoder gradients equal those of a step without the target term
snapshot = {k: v.clone() for k, v in model.state_dict().items()}
step_grads = trainer.train_generator(src_ids, src_labels, tgt_ids)
model.load_state_dict(snapshot)
labeled = model(src_ids, "retrieval,lang_id", label_ids=src_labels)
src_out = trainer.discriminator(labeled["lang_id"]["logits"])
no_tgt_loss = labeled["retrieval"]["loss"] + F.binary_cross_entropy_with_logits(src_out, torch.zeros_like(src_out))
ref = dict(zip([n for n, _ in model.encoder.named_parameters()], encoder_grads(no_tgt_loss, model.encoder)))
for name, g in step_grads.items():
    assert torch.allclose(g, ref[name], atol=1e-6), name

# 3) intended: attached target features do carry the adversarial signal into the encoder
tgt_feats = model.encoder(tgt_ids)
fixed_term = F.binary_cross_entropy_with_logits(trainer.discriminator(tgt_feats), torch.ones(8, 1))
fixed = encoder_grads(fixed_term, model.encoder)
assert all(g is not None for g in fixed)
assert sum(g.abs().sum().item() for g in fixed) > 0
print("target-language adversarial term reaches the encoder only when features stay attached")
