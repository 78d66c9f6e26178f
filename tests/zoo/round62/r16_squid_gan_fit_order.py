"""
expect: GL005 r16_squid_gan_fit_order.py:52
dynamic: confirm
source: https://github.com/zyh911/image_dehazing/blob/0e6c40f65b7ea27a668af674a30934f5d7bd41ee/little-squid-dehaze/squid/model/supervise_model.py

A dehazing training framework (little-squid) routes gradients by hand: the
network output is copied into a fresh leaf, every loss is computed on the
copy and back-propagated separately, and the weighted sum of the copy's
gradients is finally pushed into the network with output.backward(grad).
One of the losses is a GAN loss that owns its discriminator and optimizer and
has a `fit` method. In `_compute_loss` the generator-side GAN loss is first
evaluated through D (which saves D's weights for backward), then `fit` trains
D on the same batch -- including `self.optimizer.step()` -- and only
afterwards `_grad_wrt_output` back-propagates the generator-side GAN loss
through D. That backward needs D's weights as they were in the forward, but
the step has overwritten them in place: on the 2017-era PyTorch this gave
gradients from the updated weights without complaint, on current PyTorch it
raises "modified by an inplace operation". The asserts catch that error, and
show that fitting D after the per-loss gradients have been taken trains both
the dehazing net and D.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class GanLoss(nn.Module):
    def __init__(self, lr=1e-3):
        super().__init__()
        self.D = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.LeakyReLU(0.2),
                               nn.Conv2d(8, 1, 3, padding=1))
        self.optimizer = torch.optim.RMSprop(self.D.parameters(), lr=lr)

    def partial_loss(self, d_output, required_real):
        target = 1.0 if required_real else 0.0
        return torch.mean((d_output - target) ** 2)  # LSGAN

    def forward(self, output, target):
        self.D.eval()
        return self.partial_loss(self.D(output), required_real=True)

    def fit(self, output, target):
        self.D.train()
        self.D.zero_grad()
        real_d = self.D(target.detach().clone().requires_grad_(True))
        fake_d = self.D(output.detach().clone().requires_grad_(True))
        d_loss = 0.5 * (self.partial_loss(real_d, True) + self.partial_loss(fake_d, False))
        d_loss.backward()
        self.optimizer.step()
        return {"d_loss": d_loss.item()}


class SuperviseModel:
    def __init__(self, net, losses, fit_after_grad):
        self.net = net
        self.losses = losses  # name -> (loss module, weight)
        self.optimizer = torch.optim.Adam(net.parameters(), lr=1e-3)
        self.fit_after_grad = fit_after_grad

    def _grad_wrt_output(self, output_copy, loss_dict):
        grad_sum = 0
        for name, loss in loss_dict.items():
            loss.backward()
            grad_sum = grad_sum + output_copy.grad * self.losses[name][1]
            output_copy.grad = None
        return grad_sum

    def _compute_loss(self, output, target):
        output_copy = output.detach().clone().requires_grad_(True)
        loss_dict = {}
        for name, (obj, _) in self.losses.items():
            loss_dict[name] = obj(output_copy, target)
            if not self.fit_after_grad and hasattr(obj, "fit"):
                obj.fit(output_copy, target)
        grad_sum = self._grad_wrt_output(output_copy, loss_dict)
        if self.fit_after_grad:
            for obj, _ in self.losses.values():
                if hasattr(obj, "fit"):
                    obj.fit(output_copy, target)
        output.backward(grad_sum)
        return {k: v.item() for k, v in loss_dict.items()}

    def fit(self, hazy, clear):
        self.net.train()
        output = self.net(hazy)
        self.net.zero_grad()
        logs = self._compute_loss(output, clear)
        self.optimizer.step()
        return logs


def make_batch(gen):
    clear = torch.rand(2, 3, 16, 16, generator=gen)
    t = 0.4 + 0.5 * torch.rand(2, 1, 16, 16, generator=gen)
    return clear * t + 0.8 * (1 - t), clear


def run(fit_after_grad, steps=4):
    torch.manual_seed(0)
    net = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 3, 3, padding=1))
    gan = GanLoss()
    model = SuperviseModel(net, {"mse": (nn.MSELoss(), 1.0), "gan": (gan, 0.01)}, fit_after_grad)
    g0 = [p.detach().clone() for p in net.parameters()]
    d0 = [p.detach().clone() for p in gan.D.parameters()]
    gen = torch.Generator().manual_seed(7)
    for _ in range(steps):
        model.fit(*make_batch(gen))
    g_moved = all(not torch.equal(a, b) for a, b in zip(g0, net.parameters()))
    d_moved = all(not torch.equal(a, b) for a, b in zip(d0, gan.D.parameters()))
    return g_moved, d_moved


def main():
    try:
        run(fit_after_grad=False)
        raised = None
    except RuntimeError as err:
        raised = str(err)
    assert raised is not None and "modified by an inplace operation" in raised, raised
    g_moved, d_moved = run(fit_after_grad=True)
    assert g_moved and d_moved
    print("D stepped before the generator's GAN-loss backward: caught; reordered: trains")


if __name__ == "__main__":
    main()
