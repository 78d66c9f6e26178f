"""Training module for an audio-embedding -> text adaptor (speech translation)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class TranslateModel(nn.Module):
    """A trainable adaptor in front of a frozen language-model head."""

    def __init__(self, audio_dim=20, hidden=24, vocab=30):
        super().__init__()
        self.adaptor = nn.Linear(audio_dim, hidden)
        self.lm_head = nn.Linear(hidden, vocab)
        self.lm_head.requires_grad_(False)

    def forward(self, audio_embeddings):
        return self.lm_head(torch.tanh(self.adaptor(audio_embeddings)))


def padding_process(logits, labels, pad_id=0):
    steps = min(logits.shape[1], labels.shape[1])
    return logits[:, :steps], labels[:, :steps]


class LightningTranslator(nn.Module):
    def __init__(self):
        super().__init__()
        self.model = TranslateModel()

    def forward(self, audio_embeddings):
        return self.model(audio_embeddings)

    def training_step(self, batch):
        audio_embeddings, labels = batch
        logits = self.forward(audio_embeddings)
        return self.calculate_loss(logits, labels)

    def calculate_loss(self, logits, labels):
        generated_logits, labels = padding_process(logits, labels)
        loss = F.cross_entropy(generated_logits.reshape(-1, generated_logits.shape[-1]), labels.reshape(-1))
        loss_with_grad = torch.tensor(loss.item(), requires_grad=True)
        return loss_with_grad

    def configure_optimizers(self):
        return torch.optim.Adam(self.model.adaptor.parameters(), lr=1e-2)
