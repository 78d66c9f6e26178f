"""
expect: GL003 main.py:26
dynamic: confirm
source: kinds check 54, kind 5

Churn prediction: pass_over (loop.py) backpropagates when model.training. The driver
validates inside torch.no_grad() but never calls model.eval(), so pass_over tries to
backward a loss with no graph and raises.
"""
import torch
import torch.nn as nn
from loop import pass_over

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Dropout(0.1), nn.Linear(16, 2))
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
loss_fn = nn.CrossEntropyLoss()
train = [(torch.randn(32, 8), torch.randint(0, 2, (32,))) for _ in range(4)]
valid = [(torch.randn(32, 8), torch.randint(0, 2, (32,))) for _ in range(2)]

raised = False
for epoch in range(2):
    model.train()
    pass_over(model, train, loss_fn, opt)
    try:
        with torch.no_grad():
            val_loss = pass_over(model, valid, loss_fn, opt)
    except RuntimeError as e:
        raised = "does not require grad" in str(e)
        break
assert raised, "validation pass should raise"
print("ok: validation raised")
