"""
expect: GL003 76
dynamic: confirm
source: https://github.com/lululxvi/deepxde/pull/920

Physics-informed neural networks (DeepXDE-style Model with the PyTorch backend). The network
outputs a stream function psi(x, y) and an output transform turns it into the velocity field
(u, v) = (dpsi/dy, -dpsi/dx) with torch.autograd.grad, so every prediction is divergence-free
by construction. Training goes through the path that converts the inputs and calls
requires_grad_() on them, so the net learns the flow. Model.predict, however, converts the
inputs and runs the network inside `with torch.no_grad():`, which means the output transform,
a function that calls autograd.grad, runs with autograd switched off and fails with "element 0
of tensors does not require grad". The PR fixed it by marking the inputs as requiring grad and
calling the network outside the no_grad block. The asserts show the training loss falls and
the transform gives velocities during training, the default predict raises that RuntimeError,
and the fixed predict returns the learned velocity field (close to the exact one and with
near-zero divergence).
"""
import math

import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)
np.random.seed(0)


class FNN(nn.Module):
    def __init__(self, layer_sizes):
        super().__init__()
        self.linears = nn.ModuleList(
            nn.Linear(a, b) for a, b in zip(layer_sizes[:-1], layer_sizes[1:])
        )
        self._output_transform = None

    def apply_output_transform(self, transform):
        self._output_transform = transform

    def forward(self, inputs):
        x = inputs
        for layer in self.linears[:-1]:
            x = torch.tanh(layer(x))
        x = self.linears[-1](x)
        if self._output_transform is not None:
            x = self._output_transform(inputs, x)
        return x


def stream_to_velocity(inputs, psi):
    dpsi = torch.autograd.grad(psi, inputs, grad_outputs=torch.ones_like(psi), create_graph=True)[0]
    u = dpsi[:, 1:2]
    v = -dpsi[:, 0:1]
    return torch.cat([u, v], dim=1)


class Model:
    def __init__(self, net):
        self.net = net
        self.opt = None

    def compile(self, lr):
        self.opt = torch.optim.Adam(self.net.parameters(), lr=lr)

    def _outputs_losses(self, training, inputs, targets):
        self.net.train(mode=training)
        inputs = torch.as_tensor(inputs)
        inputs.requires_grad_()
        outputs = self.net(inputs)
        loss = torch.mean((outputs - torch.as_tensor(targets)) ** 2)
        return outputs, loss

    def _outputs(self, training, inputs):
        self.net.train(mode=training)
        with torch.no_grad():
            inputs = torch.as_tensor(inputs)
            return self.net(inputs)

    def _outputs_fixed(self, training, inputs):
        self.net.train(mode=training)
        with torch.no_grad():
            inputs = torch.as_tensor(inputs)
        inputs.requires_grad_()
        return self.net(inputs)

    def train(self, X, Y, iterations):
        history = []
        for _ in range(iterations):
            self.opt.zero_grad()
            _, loss = self._outputs_losses(True, X, Y)
            loss.backward()
            self.opt.step()
            history.append(loss.item())
        return history

    def predict(self, X):
        return self._outputs(False, X).detach().cpu().numpy()

    def predict_fixed(self, X):
        return self._outputs_fixed(False, X).detach().cpu().numpy()


def exact_velocity(X):
    x, y = X[:, 0:1], X[:, 1:2]
    u = math.pi * np.sin(math.pi * x) * np.cos(math.pi * y)
    v = -math.pi * np.cos(math.pi * x) * np.sin(math.pi * y)
    return np.hstack([u, v]).astype(np.float32)


def main():
    X_train = np.random.rand(256, 2).astype(np.float32)
    Y_train = exact_velocity(X_train)

    net = FNN([2, 32, 32, 1])
    net.apply_output_transform(stream_to_velocity)
    model = Model(net)
    model.compile(lr=5e-3)
    history = model.train(X_train, Y_train, iterations=600)
    print(f"train loss {history[0]:.4f} -> {history[-1]:.5f}")
    assert history[-1] < 0.05 * history[0], (history[0], history[-1])

    X_test = np.random.rand(200, 2).astype(np.float32)

    # default predict: the output transform runs under no_grad and cannot differentiate
    try:
        model.predict(X_test)
        raised = None
    except RuntimeError as err:
        raised = str(err)
    assert raised is not None, "predict should fail inside no_grad"
    assert "does not require grad" in raised, raised
    print("predict under no_grad raised:", raised.splitlines()[0])

    # fixed predict: inputs require grad, the network runs outside the no_grad block
    pred = model.predict_fixed(X_test)
    err = np.sqrt(np.mean((pred - exact_velocity(X_test)) ** 2)) / np.sqrt(np.mean(exact_velocity(X_test) ** 2))
    print(f"relative L2 error of predicted velocity {err:.4f}")
    assert err < 0.15, err

    # the predicted field is divergence free by construction (checked with autograd)
    Xt = torch.as_tensor(X_test).requires_grad_()
    vel = net(Xt)
    du = torch.autograd.grad(vel[:, 0].sum(), Xt, create_graph=True)[0][:, 0]
    dv = torch.autograd.grad(vel[:, 1].sum(), Xt)[0][:, 1]
    div = (du + dv).abs().max().item()
    assert div < 1e-4, div
    print("ok: training works, no_grad predict fails, fixed predict recovers the flow")


if __name__ == "__main__":
    main()
