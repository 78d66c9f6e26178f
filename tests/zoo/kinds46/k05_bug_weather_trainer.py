"""
expect: GL005 33
dynamic: confirm
source: kinds check 46, kind 3

A multi-task weather trainer (plain class, not nn.Module) predicts
temperature and humidity from one shared forward. train_step backpropagates
the temperature loss with retain_graph=True and steps the optimizer before
backpropagating the humidity loss; the step edits the weights the retained
graph saved, so the second backward raises "modified by an inplace operation".
"""
import torch
import torch.nn as nn


class WeatherTrainer:
    def __init__(self):
        torch.manual_seed(3)
        self.model = nn.Sequential(nn.Linear(12, 32), nn.Tanh(), nn.Linear(32, 2))
        self.opt = torch.optim.SGD(self.model.parameters(), lr=0.01, momentum=0.9)
        self.obs = torch.randn(64, 12)
        self.temp = torch.randn(64)
        self.humid = torch.rand(64)

    def forward_pass(self):
        out = self.model(self.obs)
        self.loss_a = (out[:, 0] - self.temp).pow(2).mean()
        self.loss_b = (torch.sigmoid(out[:, 1]) - self.humid).pow(2).mean()

    def update_a(self):
        self.opt.zero_grad()
        self.loss_a.backward(retain_graph=True)
        self.opt.step()

    def train_step(self):
        self.forward_pass()
        self.update_a()
        self.loss_b.backward()


trainer = WeatherTrainer()
try:
    trainer.train_step()
except RuntimeError as e:
    assert "modified by an inplace operation" in str(e), e
    print("ok: second backward fails after the step")
else:
    raise AssertionError("expected the in-place modification error")
