"""
expect: GL001 55, GL003 57
dynamic: confirm
source: https://github.com/aisu-programming/IntentClassification-and-SlotTagging/blob/369670b7d6f40aaa1bf00624af196446b2cf043a/train_intent_sample.py

Intent classification homework: a bag-of-embeddings classifier predicts one of several intents
per utterance. In the training loop the logits are detached so that an accuracy can be computed
through .numpy(), and the same detached tensor is then handed to the loss with
output.requires_grad_() - which silences "element 0 of tensors does not require grad" but makes
the logits a brand-new leaf. loss.backward() fills only that leaf's .grad; the embedding and the
classifier get no gradient and optimizer.step() changes nothing, epoch after epoch. The asserts
show the weights unchanged and the loss flat, and that computing accuracy on a detached copy while
the loss uses the live logits trains the model.
"""
import numpy as np
import torch
import torch.nn as nn

VOCAB, N_INTENTS, SEQ = 50, 6, 8


class SeqClassifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, 16)
        self.fc = nn.Linear(16, N_INTENTS)

    def forward(self, tokens):
        return self.fc(self.embed(tokens).mean(dim=1))


def calculate_accuracy(logits, answer):
    pred = logits.numpy().argmax(axis=1)
    return float(np.mean(pred == answer.numpy()))


def make_data():
    g = torch.Generator().manual_seed(3)
    labels = torch.randint(0, N_INTENTS, (120,), generator=g)
    # each intent prefers its own slice of the vocabulary
    tokens = (labels[:, None] * 8 + torch.randint(0, 8, (120, SEQ), generator=g)) % VOCAB
    return tokens, labels


def train(model, tokens, labels, epochs, homework_version):
    optimizer = torch.optim.Adam(model.parameters(), lr=0.05)
    criterion = nn.CrossEntropyLoss()
    losses, accs = [], []
    for epoch in range(epochs):
        for start in range(0, len(tokens), 40):
            x, y = tokens[start:start + 40], labels[start:start + 40]
            optimizer.zero_grad()
            output = model(x)
            if homework_version:
                output = output.detach()
                accuracy = calculate_accuracy(output, y)
                loss = criterion(output.requires_grad_(), y)
            else:
                accuracy = calculate_accuracy(output.detach(), y)
                loss = criterion(output, y)
            loss.backward()
            optimizer.step()
            losses.append(loss.item())
            accs.append(accuracy)
    return losses, accs


torch.manual_seed(0)
torch.set_num_threads(1)
tokens, labels = make_data()

model = SeqClassifier()
w0 = model.fc.weight.detach().clone()
e0 = model.embed.weight.detach().clone()
losses, accs = train(model, tokens, labels, epochs=5, homework_version=True)
assert model.fc.weight.grad is None and model.embed.weight.grad is None
assert torch.equal(w0, model.fc.weight) and torch.equal(e0, model.embed.weight)
assert abs(np.mean(losses[:3]) - np.mean(losses[-3:])) < 1e-6  # same batches, same loss

fixed = SeqClassifier()
fixed.load_state_dict({"embed.weight": e0, "fc.weight": w0, "fc.bias": model.fc.bias.detach()})
f_losses, f_accs = train(fixed, tokens, labels, epochs=5, homework_version=False)
assert np.mean(f_losses[-3:]) < 0.5 * np.mean(f_losses[:3])
assert np.mean(f_accs[-3:]) > np.mean(accs[-3:])
print("homework loop: loss %.3f -> %.3f (weights untouched); fixed loop: %.3f -> %.3f"
      % (losses[0], losses[-1], f_losses[0], f_losses[-1]))
