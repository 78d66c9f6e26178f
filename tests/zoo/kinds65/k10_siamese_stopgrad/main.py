"""
expect: none
dynamic: dismiss
source: none, invented

A SimSiam-style self-supervised pretraining script for sensor feature vectors, run twice to compare the
symmetric and the one-sided loss. The model's constructor takes a `symmetric` flag and its pair_loss
method detaches the projected embedding of the other view on both arms of `if self.symmetric:`; that is
the standard stop-gradient on the target. The predictions on the attached side still run through the
backbone, projector and predictor, so every trained submodule gets a gradient under either setting. The
asserts build the model both ways and check that each parameter has a non-zero gradient and moves, and
that the loss goes down.
"""
import torch

from model import SiameseNet


def augment(x):
    return x * (1 + 0.1 * torch.randn_like(x)) + 0.1 * torch.randn_like(x)


def pretrain(symmetric, data, steps=40):
    net = SiameseNet(symmetric)
    opt = torch.optim.SGD(net.parameters(), lr=0.05, momentum=0.9)
    start = {n: p.detach().clone() for n, p in net.named_parameters()}
    losses = []
    for step in range(steps):
        batch = data[torch.randint(0, len(data), (32,))]
        opt.zero_grad()
        loss = net.pair_loss(augment(batch), augment(batch))
        loss.backward()
        if step == 0:
            for n, p in net.named_parameters():
                assert p.grad is not None and p.grad.abs().sum() > 0, (symmetric, n)
        opt.step()
        losses.append(loss.item())
    for n, p in net.named_parameters():
        assert not torch.equal(start[n], p.detach()), (symmetric, n)
    return losses


def main():
    torch.manual_seed(0)
    torch.set_num_threads(1)
    data = torch.randn(256, 20)
    for symmetric in (True, False):
        losses = pretrain(symmetric, data)
        assert sum(losses[-5:]) < sum(losses[:5])
        print("symmetric=%s loss %.3f -> %.3f" % (symmetric, losses[0], losses[-1]))


if __name__ == "__main__":
    main()
