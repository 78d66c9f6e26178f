"""
expect: none
dynamic: dismiss
source: kinds check 19, kind 2 (written for this check)

Same layout as the bugs: `TranscriptionTrainer` (trainer_base.py) sets `self.model`,
the subclass builds `self.opt` on it and keeps an LSTM state on the object. Here the
onset and frame losses are backpropagated one after the other with
`retain_graph=True` and only then is the optimizer stepped once, and the carried
state is detached each update. The asserts show the two backwards equal one summed
backward, the graph behind the state stays the same size, and many updates run.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from trainer_base import TranscriptionTrainer


class OnsetsAndFrames(nn.Module):
    def __init__(self, n_mels=32, hidden=48, n_pitches=88):
        super().__init__()
        self.lstm = nn.LSTM(n_mels, hidden, batch_first=True)
        self.onset = nn.Linear(hidden, n_pitches)
        self.frame = nn.Linear(hidden, n_pitches)

    def forward(self, mel, state=None):
        h, state = self.lstm(mel, state)
        return self.onset(h), self.frame(h), state


class StreamingTranscriber(TranscriptionTrainer):
    def __init__(self, model, lr=1e-3):
        super().__init__(model)
        self.opt = torch.optim.Adam(self.model.parameters(), lr=lr)
        self.state = None

    def losses(self, mel, onsets, frames):
        state = None if self.state is None else tuple(s.detach() for s in self.state)
        on_logit, fr_logit, self.state = self.model(mel, state)
        return (F.binary_cross_entropy_with_logits(on_logit, onsets),
                F.binary_cross_entropy_with_logits(fr_logit, frames))

    def update(self, mel, onsets, frames, step=True):
        onset_loss, frame_loss = self.losses(mel, onsets, frames)
        self.opt.zero_grad()
        onset_loss.backward(retain_graph=True)
        frame_loss.backward()
        if step:
            self.opt.step()
        self.log(onset=onset_loss, frame=frame_loss)


def n_nodes(t):
    seen, todo = set(), [t.grad_fn]
    while todo:
        fn = todo.pop()
        if fn is not None and fn not in seen:
            seen.add(fn)
            todo += [n for n, _ in fn.next_functions]
    return len(seen)


if __name__ == "__main__":
    torch.manual_seed(5)
    batch = [(torch.randn(2, 10, 32), (torch.rand(2, 10, 88) > 0.9).float(),
              (torch.rand(2, 10, 88) > 0.7).float()) for _ in range(6)]
    trainer = StreamingTranscriber(OnsetsAndFrames())
    trainer.update(*batch[0], step=False)
    split = [p.grad.clone() for p in trainer.model.parameters()]
    trainer.state = None
    a, b = trainer.losses(*batch[0])
    trainer.opt.zero_grad()
    (a + b).backward()
    assert all(torch.allclose(g, p.grad, atol=1e-6) for g, p in zip(split, trainer.model.parameters()))
    sizes = []
    for mel, on, fr in batch:
        trainer.update(mel, on, fr)
        sizes.append(n_nodes(trainer.state[0]))
    assert len(set(sizes)) == 1, sizes
    assert len(trainer.history) == 7
    print("k2_ok_music: two backwards then one step; state truncated", sizes)
