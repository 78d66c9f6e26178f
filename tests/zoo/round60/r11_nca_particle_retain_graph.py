"""
expect: GL004 78
dynamic: confirm
source: https://github.com/PWhiddy/Growing-Neural-Cellular-Automata-Pytorch/blob/858c292c4e2c0e9d7d1f44f74c7d6395215fcbec/CA_Particles_V3/ca_particles/ca_trainer.py#L74

The trainer of this neural-cellular-automaton particle simulator rolls a learned
CA forward next to a ground-truth particle simulation. The rollout is cut into
blocks; after every block it compares the drawn CA state with the drawn
ground-truth frame and calls loss.backward(retain_graph=True), and only after
all blocks it calls optimizer.step(). The CA state is carried from block to
block, so block k's loss hangs off the whole graph of blocks 1..k and every
backward walks back to step 0 again: the work grows quadratically with the
number of blocks and the graph of the last block is kept alive as well. Without
retain_graph the second backward fails, which is why the flag was added; it only
hides that the losses should be summed and back-propagated once. The program
counts how many times the backward pass goes through the CA update (a counting
autograd Function inside each step): the retain_graph loop visits steps
S*B*(B+1)/2 times, the fixed trainer (sum of block losses, one backward) visits
S*B times, and both give the same gradients.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

CHANNELS, SIZE = 6, 8
STEPS_PER_DRAW = 3


class CountBackward(torch.autograd.Function):
    calls = 0

    @staticmethod
    def forward(ctx, x):
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad):
        CountBackward.calls += 1
        return grad


class LearnedCA(nn.Module):
    def __init__(self):
        super().__init__()
        self.perceive = nn.Conv2d(CHANNELS, 24, 3, padding=1, padding_mode="circular")
        self.update = nn.Conv2d(24, CHANNELS, 1)
        self.states = None

    def reset(self, batch):
        self.states = torch.zeros(batch, CHANNELS, SIZE, SIZE)

    def sim_step(self, dt):
        delta = self.update(torch.relu(self.perceive(self.states)))
        self.states = CountBackward.apply(self.states + dt * 0.1 * delta)

    def draw(self):
        return torch.sigmoid(self.states[:, :3])


def ground_truth_frames(batch, blocks):
    # a tiny "particle" field that drifts one cell per draw
    base = torch.zeros(batch, 3, SIZE, SIZE)
    base[:, :, 2, 2] = 1.0
    base[:, 1, 5, 4] = 1.0
    return [torch.roll(base, shifts=k + 1, dims=3) * 0.8 + 0.1 for k in range(blocks)]


def train_step_retain(model, optimizer, gt, blocks):
    optimizer.zero_grad()
    model.reset(gt[0].shape[0])
    for b in range(blocks):
        for _ in range(STEPS_PER_DRAW):
            model.sim_step(1.0)
        loss = F.mse_loss(model.draw(), gt[b])
        loss.backward(retain_graph=True)
    optimizer.step()


def train_step_fixed(model, optimizer, gt, blocks):
    optimizer.zero_grad()
    model.reset(gt[0].shape[0])
    total = 0.0
    for b in range(blocks):
        for _ in range(STEPS_PER_DRAW):
            model.sim_step(1.0)
        total = total + F.mse_loss(model.draw(), gt[b])
    total.backward()
    optimizer.step()


def grads_and_calls(step_fn, blocks):
    torch.manual_seed(1)
    model = LearnedCA()
    opt = torch.optim.SGD(model.parameters(), lr=0.0)  # lr 0: only inspect grads
    gt = ground_truth_frames(2, blocks)
    CountBackward.calls = 0
    step_fn(model, opt, gt, blocks)
    return [p.grad.clone() for p in model.parameters()], CountBackward.calls


for blocks in (2, 4, 6):
    g_bug, calls_bug = grads_and_calls(train_step_retain, blocks)
    g_fix, calls_fix = grads_and_calls(train_step_fixed, blocks)
    assert calls_bug == STEPS_PER_DRAW * blocks * (blocks + 1) // 2, calls_bug
    assert calls_fix == STEPS_PER_DRAW * blocks, calls_fix
    for a, b in zip(g_bug, g_fix):
        assert torch.allclose(a, b, atol=1e-6)
    print(f"blocks={blocks}: backward visits per step  retain_graph={calls_bug}  fixed={calls_fix}")

# dropping retain_graph without summing the losses is not a fix either
torch.manual_seed(1)
model = LearnedCA()
model.reset(2)
gt = ground_truth_frames(2, 2)
try:
    for b in range(2):
        for _ in range(STEPS_PER_DRAW):
            model.sim_step(1.0)
        F.mse_loss(model.draw(), gt[b]).backward()
    raise AssertionError("expected a second-backward error")
except RuntimeError as err:
    assert "second time" in str(err)

# the fixed trainer still learns
torch.manual_seed(2)
model = LearnedCA()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
gt = ground_truth_frames(2, 4)


def rollout_loss():
    with torch.no_grad():
        model.reset(2)
        total = 0.0
        for b in range(4):
            for _ in range(STEPS_PER_DRAW):
                model.sim_step(1.0)
            total += F.mse_loss(model.draw(), gt[b]).item()
    return total


before = rollout_loss()
for _ in range(60):
    train_step_fixed(model, opt, gt, 4)
after = rollout_loss()
assert after < before * 0.7, (before, after)
print(f"fixed trainer rollout loss {before:.4f} -> {after:.4f}")
