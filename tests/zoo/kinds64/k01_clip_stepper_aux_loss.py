"""
expect: GL005 61
dynamic: confirm
source: none, invented

A small regression trainer wraps its optimizer in a ClippedStepper that is handed the model, builds
torch.optim.SGD(model.parameters()) inside, and clips gradients before stepping. The loop computes the main
loss and a consistency loss on a noisy copy of the batch, both through the model, but the consistency loss is
only backpropagated after stepper.step() has already updated the weights in place. The graph of the second
loss saved the old weights, so backward raises "modified by an inplace operation"; even if it did not, its
gradient would be wiped by the next zero_grad and never applied. The asserts catch the RuntimeError in the
buggy order and show that, with both backward calls before step, training runs and the loss goes down.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


class ClippedStepper:
    def __init__(self, model, lr=0.05, max_norm=1.0):
        self.model = model
        self.max_norm = max_norm
        self.optimizer = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)

    def zero_grad(self):
        self.optimizer.zero_grad()

    def step(self):
        torch.nn.utils.clip_grad_norm_(self.model.parameters(), self.max_norm)
        self.optimizer.step()


def make_data(n=128):
    x = torch.randn(n, 8)
    w = torch.randn(8, 1)
    y = x @ w + 0.1 * torch.randn(n, 1)
    return x, y


def build_model():
    return nn.Sequential(nn.Linear(8, 32), nn.Tanh(), nn.Linear(32, 1))


def train(model, x, y, epochs=20, fixed=False):
    stepper = ClippedStepper(model)
    loss_fn = nn.MSELoss()
    losses = []
    for epoch in range(epochs):
        stepper.zero_grad()
        pred = model(x)
        loss = loss_fn(pred, y)
        noisy_pred = model(x + 0.05 * torch.randn_like(x))
        consistency = loss_fn(noisy_pred, pred.detach())
        loss.backward()
        if fixed:
            consistency.backward()
            stepper.step()
        else:
            stepper.step()
            consistency.backward()
        losses.append(loss.item())
    return losses


if __name__ == "__main__":
    x, y = make_data()

    model = build_model()
    try:
        train(model, x, y, fixed=False)
        raised = False
    except RuntimeError as err:
        raised = "modified by an inplace operation" in str(err)
    assert raised, "expected the late backward to hit weights already changed by step()"

    torch.manual_seed(0)
    model = build_model()
    losses = train(model, x, y, fixed=True)
    assert losses[-1] < losses[0] * 0.5, losses
    print("ok: late backward fails, fixed order trains", round(losses[0], 3), "->", round(losses[-1], 3))
