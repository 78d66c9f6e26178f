"""Multitask text model: a shared encoder with one head per task (the generator in adversarial training)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Encoder(nn.Module):
    def __init__(self, vocab=40, dim=16):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.rnn = nn.GRU(dim, dim, batch_first=True)

    def forward(self, ids):
        states, _ = self.rnn(self.emb(ids))
        return states.mean(dim=1)


class MultitaskModel(nn.Module):
    def __init__(self, n_labels=3, dim=16):
        super().__init__()
        self.encoder = Encoder(dim=dim)
        self.heads = nn.ModuleDict({
            "retrieval": nn.Linear(dim, n_labels),
            "lang_id": nn.Identity(),  # exposes sentence features to the discriminator
        })

    def forward(self, ids, task_names, label_ids=None):
        features = self.encoder(ids)
        outputs = {}
        for name in task_names.split(","):
            logits = self.heads[name](features)
            if label_ids is not None:
                if name == "lang_id":
                    outputs[name] = {"logits": logits}
                else:
                    loss = F.cross_entropy(logits, label_ids)
                    outputs[name] = {"loss": loss, "logits": logits}
            else:
                # no labels: treated like an evaluation pass
                outputs[name] = {"logits": logits.detach()}
        return outputs
