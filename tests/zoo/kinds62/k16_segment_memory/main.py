"""
expect: GL001 memory.py:26
dynamic: confirm
source: none, invented

A segment-recurrent document classifier: documents arrive as three segments, only the first of which contains
the topic words, and every segment must be labelled with the document's topic. After each segment the GRU
states are handed to SlotMemory.write, which runs the trainable `writer` projection and stores the result in a
registered buffer with `self.slots.copy_(summary)` under torch.no_grad(); the next segment's forward reads the
buffer. The stored copy is the only way `writer` could reach any loss, so the writer is in the optimizer but
never gets a gradient: later segments read a fixed random projection of the earlier one. The asserts show the
memory is being written (the buffer changes), writer.weight.grad stays None after every backward and the writer
is bit-identical after training; the document-level variant that carries memory.summarize(h) to the next
segment as a tensor gives the writer gradients and it trains.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from memory import SlotMemory

torch.manual_seed(0)
torch.set_num_threads(1)

VOCAB, N_TOPICS, DIM, N_SLOTS, BATCH, SEG_LEN = 60, 4, 32, 4, 16, 10
TOPIC_WORDS = torch.arange(N_TOPICS * 5).view(N_TOPICS, 5)


def documents(n_docs=40):
    for _ in range(n_docs):
        topic = torch.randint(0, N_TOPICS, (BATCH,))
        segs = torch.randint(N_TOPICS * 5, VOCAB, (3, BATCH, SEG_LEN))
        pick = torch.randint(0, 5, (BATCH, 4))
        segs[0, :, :4] = TOPIC_WORDS[topic.unsqueeze(1), pick]
        yield segs, topic


class SegmentClassifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, DIM)
        self.encoder = nn.GRU(DIM, DIM, batch_first=True)
        self.memory = SlotMemory(DIM, N_SLOTS, BATCH)
        self.head = nn.Linear(2 * DIM, N_TOPICS)

    def forward(self, tokens, slots=None):
        hidden, _ = self.encoder(self.embed(tokens))
        query = hidden.mean(dim=1)
        recalled = self.memory.read(query, slots)
        return self.head(torch.cat([query, recalled], dim=-1)), hidden


def train_streaming(model, epochs=3):
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    writer_grads, buffer_moved = [], False
    for epoch in range(epochs):
        for segs, topic in documents():
            model.memory.reset()
            for seg in segs:
                logits, hidden = model(seg)
                loss = F.cross_entropy(logits, topic)
                opt.zero_grad()
                loss.backward()
                writer_grads.append(model.memory.writer.weight.grad)
                opt.step()
                model.memory.write(hidden)
                buffer_moved |= bool(model.memory.slots.abs().sum() > 0)
    return writer_grads, buffer_moved


def train_carried(model, epochs=3):
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    writer_grads = []
    for epoch in range(epochs):
        for segs, topic in documents():
            model.memory.reset()
            slots, doc_loss = None, 0.0
            for seg in segs:
                logits, hidden = model(seg, slots)
                doc_loss = doc_loss + F.cross_entropy(logits, topic)
                slots = model.memory.summarize(hidden)
            opt.zero_grad()
            doc_loss.backward()
            writer_grads.append(model.memory.writer.weight.grad)
            opt.step()
    return writer_grads


def main():
    model = SegmentClassifier()
    w0 = model.memory.writer.weight.detach().clone()
    grads, buffer_moved = train_streaming(model)
    assert buffer_moved
    assert all(g is None for g in grads)
    assert torch.equal(model.memory.writer.weight, w0)

    torch.manual_seed(0)
    model = SegmentClassifier()
    w0 = model.memory.writer.weight.detach().clone()
    grads = train_carried(model)
    assert all(g is not None and g.abs().sum() > 0 for g in grads)
    assert not torch.equal(model.memory.writer.weight, w0)
    print("k16: carried memory trains the writer")


if __name__ == "__main__":
    main()
