"""
expect: GL001 39
dynamic: confirm
source: none, invented

Prompt tuning of a small frozen Transformer encoder for sentence classification. `PromptTunedEncoder`
keeps a bank of soft prompt vectors as an `nn.Parameter` and prepends it to the token embeddings; the
backbone is frozen and only the prompt bank and the classifier head are handed to AdamW. The forward
reads the bank as `self.prompt_bank.data`, and that is the only place the parameter is read, so the prompt
vectors enter the graph as constants: the head learns, the prompts never receive a gradient. The asserts
show `prompt_bank.grad is None` and the bank unchanged after training, while `PromptTunedEncoderV2`,
which uses `self.prompt_bank` directly, gets a non-zero gradient and moves its prompts.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

VOCAB, D_MODEL, N_CLASSES = 50, 32, 3


def build_backbone():
    layer = nn.TransformerEncoderLayer(D_MODEL, nhead=4, dim_feedforward=64, batch_first=True, dropout=0.0)
    return nn.TransformerEncoder(layer, num_layers=2, enable_nested_tensor=False)


class PromptTunedEncoder(nn.Module):
    def __init__(self, n_prompts=4):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, D_MODEL)
        self.encoder = build_backbone()
        self.prompt_bank = nn.Parameter(torch.randn(n_prompts, D_MODEL) * 0.02)
        self.classifier = nn.Linear(D_MODEL, N_CLASSES)

    def forward(self, tokens):
        emb = self.embed(tokens)
        prompts = self.prompt_bank.data.unsqueeze(0).expand(tokens.size(0), -1, -1)
        h = self.encoder(torch.cat([prompts, emb], dim=1))
        return self.classifier(h[:, : prompts.size(1)].mean(1))


class PromptTunedEncoderV2(nn.Module):
    def __init__(self, n_prompts=4):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, D_MODEL)
        self.encoder = build_backbone()
        self.prompt_bank = nn.Parameter(torch.randn(n_prompts, D_MODEL) * 0.02)
        self.classifier = nn.Linear(D_MODEL, N_CLASSES)

    def forward(self, tokens):
        emb = self.embed(tokens)
        prompts = self.prompt_bank.unsqueeze(0).expand(tokens.size(0), -1, -1)
        h = self.encoder(torch.cat([prompts, emb], dim=1))
        return self.classifier(h[:, : prompts.size(1)].mean(1))


def make_data(n=256, length=12):
    tokens = torch.randint(0, VOCAB, (n, length))
    labels = (tokens < 10).sum(1).clamp(max=N_CLASSES - 1)
    return tokens, labels


def tune(model_cls, epochs=3):
    torch.manual_seed(0)
    model = model_cls()
    for p in list(model.embed.parameters()) + list(model.encoder.parameters()):
        p.requires_grad_(False)
    opt = torch.optim.AdamW([model.prompt_bank, *model.classifier.parameters()], lr=1e-2)
    bank0 = model.prompt_bank.detach().clone()
    head0 = model.classifier.weight.detach().clone()
    tokens, labels = make_data()
    for _ in range(epochs):
        for i in range(0, len(tokens), 32):
            logits = model(tokens[i:i + 32])
            loss = F.cross_entropy(logits, labels[i:i + 32])
            opt.zero_grad()
            loss.backward()
            opt.step()
    return model, bank0, head0


if __name__ == "__main__":
    model, bank0, head0 = tune(PromptTunedEncoder)
    assert model.prompt_bank.grad is None
    assert torch.equal(model.prompt_bank.detach(), bank0)
    assert not torch.equal(model.classifier.weight.detach(), head0)

    model, bank0, head0 = tune(PromptTunedEncoderV2)
    assert model.prompt_bank.grad is not None and model.prompt_bank.grad.abs().sum() > 0
    assert not torch.equal(model.prompt_bank.detach(), bank0)
    print("k04: soft prompts train only when the parameter itself is read")
