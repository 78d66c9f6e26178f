"""
expect: GL001 29
dynamic: confirm
source: https://github.com/Lightning-AI/pytorch-lightning/issues/19517

The report: a Linear layer ends up with no gradient when the module is run twice
and the first run happens inside `with torch.no_grad()` (here, a validation
sanity check before training). This program rebuilds a module that lazily caches
the output of its key projection on the first forward call. The first call is
the sanity check under no_grad, so the cached keys are cut from the autograd
record and every training step reuses them. The asserts show the key projection's
weight gets no gradient and never changes, while the classifier head trains.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class PromptRouter(nn.Module):
    def __init__(self, dim=8, n_prompts=5, n_cls=3):
        super().__init__()
        self.prompt_bank = nn.Parameter(torch.randn(n_prompts, dim), requires_grad=False)
        self.key_proj = nn.Linear(dim, dim)
        self.head = nn.Linear(n_prompts, n_cls)
        self._keys = None

    def forward(self, x):
        if self._keys is None:
            self._keys = self.key_proj(self.prompt_bank)
        scores = x @ self._keys.t()
        return self.head(scores)


class Runner:
    def __init__(self, model):
        self.model = model
        self.opt = torch.optim.SGD(model.parameters(), lr=0.1)

    def sanity_check(self, x):
        self.model.eval()
        with torch.no_grad():
            return self.model(x)

    def fit(self, x, y, steps=5):
        self.model.train()
        for _ in range(steps):
            self.opt.zero_grad()
            loss = F.cross_entropy(self.model(x), y)
            loss.backward()
            self.opt.step()


torch.manual_seed(0)
x, y = torch.randn(20, 8), torch.randint(0, 3, (20,))
runner = Runner(PromptRouter())
kp0 = runner.model.key_proj.weight.detach().clone()
head0 = runner.model.head.weight.detach().clone()
runner.sanity_check(x)
runner.fit(x, y)
assert runner.model.key_proj.weight.grad is None
assert torch.equal(kp0, runner.model.key_proj.weight)
assert not torch.equal(head0, runner.model.head.weight)

fresh = Runner(PromptRouter())
fresh.fit(x, y, steps=1)
assert fresh.model.key_proj.weight.grad is not None
print("key_proj grad after sanity check:", runner.model.key_proj.weight.grad)
