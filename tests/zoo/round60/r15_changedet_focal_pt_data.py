"""
expect: GL001 42
dynamic: confirm
source: https://github.com/clcarwin/focal_loss_pytorch/issues/5

This widely copied FocalLoss (it is, for example, the loss of several Siamese
change-detection repositories) gathers log p_t from log_softmax and then builds
the modulating factor from `pt = Variable(logpt.data.exp())`. The `.data` takes
p_t out of the graph, so (1 - p_t)^gamma acts as a constant per-pixel weight and
the part of the focal-loss gradient that comes from the factor itself is
dropped; the issue asks exactly this ("shall the pt bp?"), and by the paper's
definition it should back-propagate. With gamma = 0 the two versions coincide,
with gamma = 2 they do not. The program trains a tiny Siamese change detector
on synthetic before/after patches and compares the gradient of the loss with
respect to the logits against the gradient of the focal loss written with p_t
kept in the graph: the `.data` version differs and instead equals the gradient
of a cross-entropy reweighted by frozen weights; the fixed loss matches the
paper's gradient and both models still train.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class FocalLoss(nn.Module):
    def __init__(self, gamma=2.0, keep_graph=False):
        super().__init__()
        self.gamma = gamma
        self.keep_graph = keep_graph

    def forward(self, logits, target):
        # logits: (N, C, H, W) -> (N*H*W, C)
        n, c = logits.shape[:2]
        flat = logits.permute(0, 2, 3, 1).reshape(-1, c)
        logpt = F.log_softmax(flat, dim=1).gather(1, target.view(-1, 1)).view(-1)
        if self.keep_graph:
            pt = logpt.exp()
        else:
            pt = logpt.data.exp()
        return (-(1 - pt) ** self.gamma * logpt).mean()


class SiameseChangeNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(),
                                     nn.Conv2d(8, 8, 3, padding=1))
        self.head = nn.Conv2d(8, 2, 1)

    def forward(self, before, after):
        return self.head(torch.abs(self.encoder(before) - self.encoder(after)))


def make_pairs(n=8, size=12):
    before = torch.rand(n, 3, size, size)
    after = before.clone()
    change = torch.zeros(n, size, size, dtype=torch.long)
    for i in range(n):
        r, c = torch.randint(0, size - 4, (2,)).tolist()
        after[i, :, r:r + 4, c:c + 4] = torch.rand(3, 1, 1)
        change[i, r:r + 4, c:c + 4] = 1
    return before, after, change


before, after, change = make_pairs()


def true_focal(logits, target, gamma=2.0):
    flat = logits.permute(0, 2, 3, 1).reshape(-1, 2)
    logpt = F.log_softmax(flat, dim=1).gather(1, target.view(-1, 1)).view(-1)
    return (-(1 - logpt.exp()) ** gamma * logpt).mean()


def grad_wrt_logits(loss_fn):
    torch.manual_seed(1)
    net = SiameseChangeNet()
    logits = net(before, after).detach().requires_grad_(True)
    loss_fn(logits, change).backward()
    return logits, logits.grad.clone()


logits, g_data = grad_wrt_logits(FocalLoss(keep_graph=False))
_, g_kept = grad_wrt_logits(FocalLoss(keep_graph=True))
_, g_paper = grad_wrt_logits(true_focal)

assert not torch.allclose(g_data, g_paper, atol=1e-6), "detached p_t should change the gradient"
assert torch.allclose(g_kept, g_paper, atol=1e-7)

# the .data version is a plain cross-entropy with frozen (1-pt)^2 weights
flat = logits.detach().permute(0, 2, 3, 1).reshape(-1, 2)
weights = (1 - F.softmax(flat, 1).gather(1, change.view(-1, 1)).view(-1)) ** 2
x = logits.detach().clone().requires_grad_(True)
ce = F.cross_entropy(x.permute(0, 2, 3, 1).reshape(-1, 2), change.view(-1), reduction="none")
(weights * ce).mean().backward()
assert torch.allclose(x.grad, g_data, atol=1e-7)
print(f"max |grad(.data focal) - grad(paper focal)| = {(g_data - g_paper).abs().max():.2e}")

# with gamma = 0 the cut does not matter
_, g0_data = grad_wrt_logits(FocalLoss(gamma=0.0))
_, g0_kept = grad_wrt_logits(FocalLoss(gamma=0.0, keep_graph=True))
assert torch.allclose(g0_data, g0_kept)


def train(keep_graph, steps=80):
    torch.manual_seed(2)
    net = SiameseChangeNet()
    opt = torch.optim.Adam(net.parameters(), lr=1e-2)
    loss_fn = FocalLoss(keep_graph=keep_graph)
    with torch.no_grad():
        start = true_focal(net(before, after), change).item()
    for _ in range(steps):
        opt.zero_grad()
        loss = loss_fn(net(before, after), change)
        loss.backward()
        opt.step()
    with torch.no_grad():
        end = true_focal(net(before, after), change).item()
    assert end < 0.5 * start, (start, end)
    return start, end


s_bug, e_bug = train(False)
s_fix, e_fix = train(True)
print(f"paper focal loss: detached p_t {s_bug:.4f} -> {e_bug:.4f}, p_t in graph {s_fix:.4f} -> {e_fix:.4f}")
