"""
expect: GL004 main.py:59
dynamic: confirm
source: https://github.com/xiangking/ark-nlp/issues/50

A user wiring PGD adversarial training into a trainer hit "trying to backward
through the graph a second time" and fixed it by making every backward
`retain_graph=True`. The real cause: inside the K attack steps the adversarial
loss is rebuilt from the clean `outputs` of the first forward, not from the new
logits, so each step backpropagates the same retained clean graph again and
the perturbation never matters. The asserts show the accumulated gradient is
exactly twice the clean gradient, unlike the fixed variant.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from adv import EmbeddingPGD

torch.manual_seed(0)
torch.set_num_threads(1)


class TextClassifier(nn.Module):
    def __init__(self, vocab=50, dim=16, classes=3):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.head = nn.Sequential(nn.Linear(dim, 32), nn.Tanh(), nn.Linear(32, classes))

    def forward(self, ids):
        return self.head(self.embed(ids).mean(1))


class AdvTrainer:
    def __init__(self, model, k=3, fixed=False):
        self.module = model
        self.pgd = EmbeddingPGD(model)
        self.K = k
        self.fixed = fixed

    def _get_train_loss(self, inputs, logits):
        return logits, F.cross_entropy(logits, inputs["labels"])

    def _on_backward(self, inputs, outputs, loss):
        loss.backward(retain_graph=True)
        self.pgd.backup_grad()
        for t in range(self.K):
            self.pgd.attack(is_first_attack=(t == 0))
            if t != self.K - 1:
                self.module.zero_grad()
            else:
                self.pgd.restore_grad()
            logits = self.module(inputs["ids"])
            if self.fixed:
                logits, loss_adv = self._get_train_loss(inputs, logits)
                loss_adv.backward()
            else:
                logits, loss_adv = self._get_train_loss(inputs, outputs)
                loss_adv.backward(retain_graph=True)
        self.pgd.restore()

    def step_grads(self, inputs):
        self.module.zero_grad()
        outputs = self.module(inputs["ids"])
        _, loss = self._get_train_loss(inputs, outputs)
        self._on_backward(inputs, outputs, loss)
        return {n: p.grad.clone() for n, p in self.module.named_parameters()}


model = TextClassifier()
state = {k: v.clone() for k, v in model.state_dict().items()}
inputs = {"ids": torch.randint(0, 50, (16, 7)), "labels": torch.randint(0, 3, (16,))}

model.zero_grad()
F.cross_entropy(model(inputs["ids"]), inputs["labels"]).backward()
clean = {n: p.grad.clone() for n, p in model.named_parameters()}

model.load_state_dict(state)
buggy = AdvTrainer(model, fixed=False).step_grads(inputs)
model.load_state_dict(state)
fixed = AdvTrainer(model, fixed=True).step_grads(inputs)

w = "head.0.weight"
# buggy: the "adversarial" term is the clean loss again, the attack is ignored
assert torch.allclose(buggy[w], 2 * clean[w], atol=1e-6)
# fixed: the perturbed forward contributes a different gradient
assert not torch.allclose(fixed[w], 2 * clean[w], atol=1e-4)
print("ok")
