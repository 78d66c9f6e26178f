"""
expect: GL003 75
dynamic: confirm
source: https://github.com/lincc-frameworks/hyrax/issues/662

Hyrax builds its training, validation and test loops as engines that call one method of the
user's model per batch. When the `test` verb was added (PR #630), `create_tester` built its
engine from the model's `train_step` and wrapped the engine's `run` in `with torch.no_grad():` so
that testing would not update weights. But `train_step` is the training inner loop: it zeroes the
gradients, runs the model, calls `loss.backward()` and `optimizer.step()`. Run inside the caller's
no_grad block, the forward pass records nothing, so the loss has no grad_fn and the step cannot
work; as issue #662 puts it, the two are mutually exclusive, and the maintainers introduced
separate `test_batch`/`validate_batch` methods (PR #664) instead. This reduction has a small CNN
classifier for 8x8 "cutouts" with a `train_step`, a minimal engine, and `create_tester` wrapping
the run in no_grad. The asserts show the tester failing with "does not require grad" and leaving
every weight unchanged, then that an evaluation-only step under no_grad reports the loss without
touching the weights, while the same `train_step` called outside no_grad trains the model.
"""
import copy

import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)
torch.set_num_threads(1)


class CutoutCNN(nn.Module):
    def __init__(self, classes=2):
        super().__init__()
        self.conv = nn.Conv2d(1, 8, 3, padding=1)
        self.fc = nn.Linear(8 * 4 * 4, classes)
        self.criterion = nn.CrossEntropyLoss()
        self.optimizer = torch.optim.SGD(self.parameters(), lr=0.1)

    def forward(self, batch):
        x, _ = batch
        h = F.max_pool2d(F.relu(self.conv(x)), 2)
        return self.fc(torch.flatten(h, 1))

    def train_step(self, batch):
        _, labels = batch
        self.optimizer.zero_grad()
        outputs = self(batch)
        loss = self.criterion(outputs, labels)
        loss.backward()
        self.optimizer.step()
        return {"loss": loss.item()}

    def test_batch(self, batch):
        _, labels = batch
        return {"loss": self.criterion(self(batch), labels).item()}


class Engine:
    def __init__(self, process_function):
        self.process_function = process_function

    def run(self, data):
        return [self.process_function(batch) for batch in data]


def create_engine(funcname, model):
    return Engine(getattr(model, funcname))


def create_tester(model, funcname="train_step"):
    tester = create_engine(funcname, model)
    original_run = tester.run

    def run_with_no_grad(data):
        model.eval()
        with torch.no_grad():
            return original_run(data)

    tester.run = run_with_no_grad
    return tester


def make_batches(n_batches=6, batch_size=16):
    batches = []
    for _ in range(n_batches):
        y = torch.randint(0, 2, (batch_size,))
        x = 0.5 * torch.randn(batch_size, 1, 8, 8)
        x[y == 1, :, 3:5, 3:5] += 2.0  # a compact source in the centre
        batches.append((x, y))
    return batches


def main():
    data = make_batches()
    model = CutoutCNN()
    snapshot = copy.deepcopy(model.state_dict())

    tester = create_tester(model)
    try:
        tester.run(data)
        raise AssertionError("expected backward to fail under no_grad")
    except RuntimeError as err:
        assert "does not require grad" in str(err)
    for key, value in model.state_dict().items():
        assert torch.equal(value, snapshot[key]), key
    assert all(p.grad is None for p in model.parameters())

    tester = create_tester(model, funcname="test_batch")
    before = sum(out["loss"] for out in tester.run(data)) / len(data)
    for key, value in model.state_dict().items():
        assert torch.equal(value, snapshot[key]), key

    model.train()
    trainer = create_engine("train_step", model)
    for _ in range(15):
        trainer.run(data)
    after = sum(out["loss"] for out in create_tester(model, "test_batch").run(data)) / len(data)
    assert after < 0.5 * before, (before, after)
    print(f"train_step under the tester's no_grad fails; test_batch: {before:.3f}, after training: {after:.3f}")


if __name__ == "__main__":
    main()
