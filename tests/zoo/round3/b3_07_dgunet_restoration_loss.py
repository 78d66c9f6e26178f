"""expect: GL002 73
expect: GL002 74
dynamic: confirm
source: https://github.com/MC-E/Deep-Generalized-Unfolding-Networks-for-Image-Restoration/issues/6

DGUNet sums a Charbonnier loss and an edge loss over the outputs of every unfolding
stage.  np.sum over the per-stage losses failed on CUDA tensors, so the reporter rebuilt
the sums with torch.tensor([...], requires_grad=True).sum(); training ran but PSNR never
moved, because the new leaf tensors carry no history back to the network.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class CharbonnierLoss(nn.Module):
    def __init__(self, eps=1e-3):
        super().__init__()
        self.eps = eps

    def forward(self, x, y):
        diff = x - y
        return torch.mean(torch.sqrt(diff * diff + self.eps * self.eps))


class EdgeLoss(nn.Module):
    def __init__(self):
        super().__init__()
        k = torch.tensor([[0.05, 0.25, 0.4, 0.25, 0.05]])
        self.register_buffer("kernel", torch.matmul(k.t(), k).unsqueeze(0).repeat(3, 1, 1, 1))
        self.loss = CharbonnierLoss()

    def conv_gauss(self, img):
        img = F.pad(img, (2, 2, 2, 2), mode="replicate")
        return F.conv2d(img, self.kernel, groups=img.shape[1])

    def laplacian_kernel(self, current):
        filtered = self.conv_gauss(current)
        down = filtered[:, :, ::2, ::2]
        new_filter = torch.zeros_like(filtered)
        new_filter[:, :, ::2, ::2] = down * 4
        return current - self.conv_gauss(new_filter)

    def forward(self, x, y):
        return self.loss(self.laplacian_kernel(x), self.laplacian_kernel(y))


class UnfoldingStage(nn.Module):
    def __init__(self, ch=3):
        super().__init__()
        self.prox = nn.Sequential(nn.Conv2d(ch, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, ch, 3, padding=1))
        self.step = nn.Parameter(torch.tensor(0.5))

    def forward(self, x, y):
        return x + self.prox(x - self.step * (x - y))


class DGUNet(nn.Module):
    def __init__(self, n_stages=3):
        super().__init__()
        self.stages = nn.ModuleList(UnfoldingStage() for _ in range(n_stages))

    def forward(self, y):
        x, outs = y, []
        for stage in self.stages:
            x = stage(x, y)
            outs.append(x)
        return outs[::-1]


def train_iteration(model, optimizer, criterion_char, criterion_edge, input_, target):
    restored = model(input_)
    loss_char = torch.tensor([criterion_char(restored[j], target) for j in range(len(restored))], requires_grad=True).sum()
    loss_edge = torch.tensor([criterion_edge(restored[j], target) for j in range(len(restored))], requires_grad=True).sum()
    loss = loss_char + (0.05 * loss_edge)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss.item()


if __name__ == "__main__":
    import warnings
    warnings.simplefilter("ignore")
    torch.manual_seed(0)
    model = DGUNet()
    optimizer = torch.optim.Adam(model.parameters(), lr=2e-4)
    target = torch.rand(2, 3, 16, 16)
    input_ = target + 0.1 * torch.randn_like(target)
    before = [p.detach().clone() for p in model.parameters()]
    train_iteration(model, optimizer, CharbonnierLoss(), EdgeLoss(), input_, target)
    assert all(p.grad is None for p in model.parameters())
    assert all(torch.equal(a, b) for a, b in zip(before, model.parameters()))
    print("restoration network never updated")
