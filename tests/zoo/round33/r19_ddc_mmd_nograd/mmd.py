import torch


class MMDLoss:
    """Multi-kernel Gaussian MMD between source and target features."""

    def __init__(self, kernel_mul=2.0, kernel_num=5):
        self.kernel_mul = kernel_mul
        self.kernel_num = kernel_num

    def kernels(self, source, target):
        total = torch.cat([source, target], dim=0)
        d2 = torch.cdist(total, total) ** 2
        n = total.size(0)
        bandwidth = d2.detach().sum() / (n * n - n)
        bandwidth = bandwidth / (self.kernel_mul ** (self.kernel_num // 2))
        return sum(torch.exp(-d2 / (bandwidth * self.kernel_mul ** i)) for i in range(self.kernel_num))

    def __call__(self, source, target):
        b = source.size(0)
        k = self.kernels(source, target)
        with torch.no_grad():
            xx = k[:b, :b].mean()
            yy = k[b:, b:].mean()
            xy = k[:b, b:].mean()
            yx = k[b:, :b].mean()
            loss = xx + yy - xy - yx
        return loss
