"""
expect: GL003 52
dynamic: confirm
source: https://github.com/wimlds-trojmiasto/detect-waste/blob/HEAD/classifier/models/efficientnet.py

A semi-supervised litter classifier runs its pseudo-labelling round from the end-of-validation
hook. The trainer runs validation under no_grad, so the pseudo-label loss built there has no
history; backward() raised "element 0 of tensors does not require grad", and the author set
`loss.requires_grad = True` to make it go away. After that, backward() runs, but it only
reaches the loss itself, so no parameter ever gets a gradient from the pseudo-labelled data.
The asserts show the loss has no grad_fn, every .grad stays None, the weights do not move,
and running the same round with grad enabled does change them.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class LitterClassifier(nn.Module):
    def __init__(self, n_classes=4, pseudo_batches=None):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(10, 16), nn.ReLU(), nn.Linear(16, n_classes))
        self.pseudo_batches = pseudo_batches or []
        self.opt = torch.optim.SGD(self.parameters(), lr=0.5)

    def training_step(self, batch):
        x, y = batch
        logits = self.net(x)
        return {"loss": F.cross_entropy(logits, y), "logits": logits}

    def update_pseudo_targets(self):
        new = []
        for x, _ in self.pseudo_batches:
            logits = self.net(x)
            new.append((x, logits.argmax(dim=1)))
        self.pseudo_batches = new

    def on_validation_epoch_end(self):
        self.update_pseudo_targets()
        self.pseudo_round()

    def pseudo_round(self):
        self.last_losses = []
        for batch in self.pseudo_batches:
            self.opt.zero_grad()
            loss = self.training_step(batch)["loss"]
            self.last_losses.append(loss)
            if not loss.requires_grad:
                loss.requires_grad = True
            loss.backward()
            self.opt.step()


class MiniTrainer:
    def validate(self, module, val_batches):
        module.eval()
        with torch.no_grad():  # like Lightning's validation loop
            for x, y in val_batches:
                module.training_step((x, y))
            module.on_validation_epoch_end()
        module.train()


def make_batches(n, seed):
    g = torch.Generator().manual_seed(seed)
    return [(torch.randn(8, 10, generator=g), torch.randint(0, 4, (8,), generator=g))
            for _ in range(n)]


model = LitterClassifier(pseudo_batches=make_batches(4, 2))
before = [p.detach().clone() for p in model.parameters()]
MiniTrainer().validate(model, make_batches(2, 3))

assert all(l.grad_fn is None for l in model.last_losses)
assert all(p.grad is None for p in model.parameters())
assert all(torch.equal(b, p) for b, p in zip(before, model.parameters()))

# fixed: run the pseudo-label round outside the no_grad validation context
model2 = LitterClassifier(pseudo_batches=make_batches(4, 2))
model2.load_state_dict(dict(zip([n for n, _ in model2.named_parameters()], before)))
with torch.no_grad():
    model2.update_pseudo_targets()
model2.pseudo_round()
assert all(l.grad_fn is not None for l in model2.last_losses)
moved = sum((b - p.detach()).abs().sum().item() for b, p in zip(before, model2.parameters()))
assert moved > 1e-3
print("ok: pseudo-label round trained nothing; fixed round moved weights by", moved)
