"""
expect: GL003 74
dynamic: confirm
source: https://github.com/vislearn/FFF/issues/5

Free-form flows train an encoder/decoder pair with a surrogate for the log-determinant that calls
torch.autograd.grad(z, x, v) inside the loss. A user who copied the loss into a trainer whose
validation loop runs under torch.no_grad() got a runtime error in the surrogate, because nothing
computed in that loop requires grad; wrapping the loss in torch.set_grad_enabled(True) made it
run. This program trains a tiny free-form flow on 2-D data and evaluates it the same way; it
asserts the validation call fails for exactly that reason and that enabling gradients around the
call makes validation work (the training step itself is unaffected).
"""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)
D = 2


def nll_surrogate(x, encode, decode):
    x.requires_grad_()
    z = encode(x)
    v = torch.randn_like(z)
    with torch.no_grad():
        eps = 1e-3
        v1 = (decode(z + eps * v) - decode(z)) / eps     # g'(z) v, treated as constant
    v2, = torch.autograd.grad(z, x, v, create_graph=True)  # v^T f'(x)
    surrogate = (v2 * v1).sum(-1)
    return surrogate, decode(z), z


def fff_loss(x, encode, decode, beta=10.0):
    surrogate, x1, z = nll_surrogate(x, encode, decode)
    nll = 0.5 * (z ** 2).sum(-1) - surrogate
    rec = ((x - x1) ** 2).sum(-1)
    return (beta * rec + nll).mean()


class FreeFormFlow(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(D, 32), nn.Tanh(), nn.Linear(32, D))
        self.decoder = nn.Sequential(nn.Linear(D, 32), nn.Tanh(), nn.Linear(32, D))


class Trainer:
    def __init__(self, model):
        self.model = model
        self.opt = torch.optim.Adam(model.parameters(), lr=3e-3)

    def training_step(self, x):
        loss = fff_loss(x.clone(), self.model.encoder, self.model.decoder)
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        return loss.item()

    def fit(self, data, epochs=20):
        for _ in range(epochs):
            for x in data.split(64):
                self.training_step(x)

    def validate(self, data, enable_grad=False):
        self.model.eval()
        total = 0.0
        with torch.no_grad():
            for x in data.split(64):
                if enable_grad:
                    with torch.set_grad_enabled(True):
                        loss = fff_loss(x.clone(), self.model.encoder, self.model.decoder)
                else:
                    loss = fff_loss(x.clone(), self.model.encoder, self.model.decoder)
                total += loss.item()
        self.model.train()
        return total


data = torch.randn(512, D) * torch.tensor([2.0, 0.5])
trainer = Trainer(FreeFormFlow())
trainer.fit(data)
try:
    trainer.validate(data[:128])
    err = None
except RuntimeError as e:
    err = str(e)
print("reported:", err)
assert err is not None and "does not require grad" in err

val = trainer.validate(data[:128], enable_grad=True)
print(f"fixed: validation loss {val:.3f}")
assert torch.isfinite(torch.tensor(val))
print("OK")
