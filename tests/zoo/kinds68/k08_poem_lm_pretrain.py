"""
expect: GL001 49
dynamic: confirm
source: none, invented

Maximum-likelihood pre-training of a character-level poem generator before an adversarial phase. The model
is moved and set to train mode by rebinding, and the training loop unrolls the LSTM cell by hand with teacher
forcing. To "keep the graph small" the author passes the hidden state to the output layer as `h.data`; the
hidden state is a float tensor produced by the LSTM cell and the embedding, so taking it through `.data`
right before the layer that yields the loss cuts both of them out of training: only the output projection
learns. The asserts show the cell and embedding grads are None and their weights unchanged; the fixed loop
trains them.
"""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F


class CharLM(nn.Module):
    def __init__(self, vocab=30, emb=16, hidden=32):
        super().__init__()
        self.embedding = nn.Embedding(vocab, emb)
        self.cell = nn.LSTMCell(emb, hidden)
        self.proj = nn.Linear(hidden, vocab)
        self.hidden = hidden


def pretrain(fixed, epochs=3):
    torch.manual_seed(0)
    device = torch.device("cpu")
    model = CharLM()
    model = model.to(device)
    model = model.train()
    before = copy.deepcopy(model.state_dict())
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    corpus = torch.randint(0, 30, (8, 13), device=device)
    inputs, targets = corpus[:, :-1], corpus[:, 1:]
    for _ in range(epochs):
        h = torch.zeros(8, model.hidden, device=device)
        c = torch.zeros_like(h)
        loss = 0.0
        for t in range(inputs.size(1)):
            h, c = model.cell(model.embedding(inputs[:, t]), (h, c))
            if fixed:
                logits = model.proj(h)
            else:
                logits = model.proj(h.data)
            loss = loss + F.cross_entropy(logits, targets[:, t])
        opt.zero_grad()
        (loss / inputs.size(1)).backward()
        grads = {n: p.grad for n, p in model.named_parameters()}
        opt.step()
    after = model.state_dict()
    return grads, before, after


if __name__ == "__main__":
    torch.set_num_threads(1)
    grads, before, after = pretrain(fixed=False)
    assert grads["cell.weight_ih"] is None and grads["embedding.weight"] is None
    assert grads["proj.weight"] is not None
    assert torch.equal(before["cell.weight_hh"], after["cell.weight_hh"])
    assert torch.equal(before["embedding.weight"], after["embedding.weight"])
    grads, before, after = pretrain(fixed=True)
    assert grads["cell.weight_ih"].abs().sum() > 0 and grads["embedding.weight"].abs().sum() > 0
    assert not torch.equal(before["cell.weight_hh"], after["cell.weight_hh"])
    print("ok: h.data starves the LSTM cell and embedding; the fixed loop trains them")
