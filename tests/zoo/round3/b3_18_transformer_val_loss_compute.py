"""expect: GL003 46
dynamic: error
source: https://github.com/harvardnlp/annotated-transformer/issues/14

In the Annotated Transformer, SimpleLossCompute.__call__ always calls loss.backward(),
even for validation where opt is None, so validation batches were silently trained on.
The fix suggested in the thread wraps the validation epoch in torch.no_grad(); with the
loss object unchanged, its backward now runs inside the caller's no-grad region and fails.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Generator(nn.Module):
    def __init__(self, d_model, vocab):
        super().__init__()
        self.proj = nn.Linear(d_model, vocab)

    def forward(self, x):
        return F.log_softmax(self.proj(x), dim=-1)


class TinyEncoderDecoder(nn.Module):
    def __init__(self, vocab=11, d_model=16):
        super().__init__()
        self.embed = nn.Embedding(vocab, d_model)
        self.layer = nn.TransformerEncoderLayer(d_model, nhead=2, dim_feedforward=32, batch_first=True)
        self.generator = Generator(d_model, vocab)

    def forward(self, src):
        return self.layer(self.embed(src))


class SimpleLossCompute:
    "A simple loss compute and train function."

    def __init__(self, generator, criterion, opt=None):
        self.generator = generator
        self.criterion = criterion
        self.opt = opt

    def __call__(self, x, y, norm):
        x = self.generator(x)
        loss = self.criterion(x.contiguous().view(-1, x.size(-1)), y.contiguous().view(-1)) / norm
        loss.backward()
        if self.opt is not None:
            self.opt.step()
            self.opt.zero_grad()
        return loss.item() * norm


def run_epoch(data_iter, model, loss_compute):
    total_loss, total_tokens = 0.0, 0
    for src, trg in data_iter:
        out = model(src)
        ntokens = trg.numel()
        total_loss += loss_compute(out, trg, ntokens)
        total_tokens += ntokens
    return total_loss / total_tokens


def data_gen(batches=2, batch=4, length=6, vocab=11):
    for _ in range(batches):
        src = torch.randint(1, vocab, (batch, length))
        yield src, src.clone()


if __name__ == "__main__":
    torch.manual_seed(0)
    model = TinyEncoderDecoder()
    criterion = nn.NLLLoss(reduction="sum")
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)

    model.train()
    run_epoch(data_gen(), model, SimpleLossCompute(model.generator, criterion, opt))

    model.eval()
    try:
        with torch.no_grad():
            run_epoch(data_gen(), model, SimpleLossCompute(model.generator, criterion, None))
    except RuntimeError as e:
        assert "does not require grad" in str(e)
        print("validation epoch raised:", str(e).splitlines()[0])
    else:
        raise AssertionError("expected backward to fail inside no_grad")
