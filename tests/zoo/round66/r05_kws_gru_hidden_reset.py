"""
expect: none
dynamic: dismiss
source: https://github.com/microsoft/ELL/blob/044148662b9549e3790bf4163192ef110d91bfb8/tools/utilities/pythonlibs/audio/training/train_classifier.py

Keyword spotting with a two-layer GRU over featurized audio frames (ELL's training
script). The GRU layers keep their hidden state on the module (`self.hidden1`,
`self.hidden2`) and `forward` overwrites it with the new state every call, which looks like
the classic recurrent-state leak that later needs `backward(retain_graph=True)`. Here it is
correct: `fit()` calls `init_hidden()` at the start of every mini-batch, which sets both
states back to None, so each batch builds a fresh graph, a plain `loss.backward()` is
enough, and nothing is carried across steps. The asserts check that the state is reset
before each forward, that the recurrent and output weights all receive gradient, that the
stored state after a batch is never an input to the next batch's graph, and that training
lowers the loss and reaches high accuracy on separable synthetic keywords.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim

torch.manual_seed(0)
torch.set_num_threads(1)


class KeywordSpotter(nn.Module):
    def __init__(self, input_dim, num_keywords):
        super().__init__()
        self.input_dim = input_dim
        self.num_keywords = num_keywords
        self.reset_log = []

    def init_hidden(self):
        pass

    def fit(self, batches, num_epochs=12, learning_rate=3e-3):
        loss_function = nn.NLLLoss()
        optimizer = optim.RMSprop(self.parameters(), lr=learning_rate)
        history = []
        for epoch in range(num_epochs):
            self.train()
            for audio, labels in batches:
                audio = audio.transpose(1, 0)  # GRU wants seq, batch, feature
                # clear the recurrent state so nothing from the last batch is reused
                self.init_hidden()
                self.reset_log.append(self.hidden1 is None and self.hidden2 is None)
                optimizer.zero_grad()
                keyword_scores = self(audio)
                loss = loss_function(keyword_scores, labels)
                loss.backward()
                optimizer.step()
                history.append(loss.item())
        return history

    def evaluate(self, batches):
        self.eval()
        passed = total = 0
        with torch.no_grad():
            for audio, labels in batches:
                self.init_hidden()
                scores = self(audio.transpose(1, 0))
                passed += (scores.argmax(1) == labels).sum().item()
                total += labels.numel()
        return passed / total


class GRUKeywordSpotter(KeywordSpotter):
    def __init__(self, input_dim, num_keywords, hidden_dim):
        super().__init__(input_dim, num_keywords)
        self.gru1 = nn.GRU(input_dim, hidden_dim)
        self.gru2 = nn.GRU(hidden_dim, hidden_dim)
        self.hidden2keyword = nn.Linear(hidden_dim, num_keywords)
        self.init_hidden()

    def init_hidden(self):
        self.hidden1 = None
        self.hidden2 = None

    def forward(self, x):
        out, self.hidden1 = self.gru1(x, self.hidden1)
        out, self.hidden2 = self.gru2(out, self.hidden2)
        scores = F.log_softmax(self.hidden2keyword(out), dim=2)
        return scores.mean(dim=0)


def make_keywords(n_per_class=48, seq=20, feat=10, classes=4):
    protos = torch.randn(classes, 1, feat) * 1.5
    xs, ys = [], []
    for c in range(classes):
        xs.append(protos[c] + 0.8 * torch.randn(n_per_class, seq, feat))
        ys.append(torch.full((n_per_class,), c, dtype=torch.long))
    x, y = torch.cat(xs), torch.cat(ys)
    perm = torch.randperm(x.size(0))
    x, y = x[perm], y[perm]
    return [(x[i:i + 32], y[i:i + 32]) for i in range(0, x.size(0), 32)]


def main():
    batches = make_keywords()
    model = GRUKeywordSpotter(input_dim=10, num_keywords=4, hidden_dim=24)
    history = model.fit(batches)

    assert all(model.reset_log)
    # one more batch: all weights get gradient, and the previous batch's state is not in the graph
    stale = model.hidden2
    model.init_hidden()
    model.zero_grad()
    loss = F.nll_loss(model(batches[0][0].transpose(1, 0)), batches[0][1])
    grads = torch.autograd.grad(loss, list(model.parameters()) + [stale], allow_unused=True)
    assert all(g is not None and g.abs().sum() > 0 for g in grads[:-1])
    assert grads[-1] is None
    acc = model.evaluate(batches)
    print("loss %.3f -> %.3f, accuracy %.2f" % (history[0], history[-1], acc))
    assert history[-1] < 0.5 * history[0]
    assert acc > 0.9


if __name__ == "__main__":
    main()
