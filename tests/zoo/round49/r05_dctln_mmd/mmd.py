"""Multi-kernel Gaussian MMD between source and target feature batches."""
import torch
import torch.nn as nn


class MMDLoss(nn.Module):
    def __init__(self, kernel_mul=2.0, kernel_num=5, keep_graph=False):
        super().__init__()
        self.kernel_mul = kernel_mul
        self.kernel_num = kernel_num
        self.keep_graph = keep_graph

    def gaussian_kernel(self, source, target):
        total = torch.cat([source, target], dim=0)
        n = total.size(0)
        l2 = ((total.unsqueeze(0) - total.unsqueeze(1)) ** 2).sum(2)
        bandwidth = torch.sum(l2.data) / (n * n - n)
        bandwidth = bandwidth / self.kernel_mul ** (self.kernel_num // 2)
        return sum(torch.exp(-l2 / (bandwidth * self.kernel_mul ** i)) for i in range(self.kernel_num))

    def forward(self, source, target):
        b = source.size(0)
        k = self.gaussian_kernel(source, target)
        if self.keep_graph:
            return k[:b, :b].mean() + k[b:, b:].mean() - k[:b, b:].mean() - k[b:, :b].mean()
        with torch.no_grad():
            loss = k[:b, :b].mean() + k[b:, b:].mean() - k[:b, b:].mean() - k[b:, :b].mean()
        return loss
