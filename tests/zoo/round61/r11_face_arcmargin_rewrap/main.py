"""
expect: GL001 headers.py:19
dynamic: confirm
source: https://github.com/jonasgrebe/pt-femb-face-embeddings/issues/3

In pt-femb-face-embeddings the base class of all margin heads (ArcFace, CosFace,
SphereFace) normalized its class-weight matrix at the top of forward() by re-assigning
the linear layer's weight to a fresh nn.Parameter built from the normalized weight. Wrapping a
computed tensor in nn.Parameter makes a brand-new leaf that is cut from the record of
the old weight, and it replaces the registered parameter. The optimizer, built from
header.parameters() before the first step, still points at the original Parameter
object, which therefore never receives a gradient and is never stepped; each forward
re-normalizes that frozen matrix again, so the head never learns its class centres
(the issue reporter asked to normalize once in __init__ or inside the graph). Here a
tiny backbone + ArcFace head is trained on random "face embeddings": with the buggy
head the parameter held by the optimizer has grad None and is bit-identical after
training, while the module now holds some other tensor (the backbone still fits the
frozen random centres, so the loss curve alone hides the problem); with the fixed head (weight
normalized inside the graph via F.linear) the optimizer's weight gets a gradient,
moves, and the loss drops.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from headers import ArcFaceHead, ArcFaceHeadFixed

torch.manual_seed(0)
torch.set_num_threads(1)

N_IDS, IN_DIM, EMB_DIM = 6, 24, 8


def make_data(n=96):
    centers = torch.randn(N_IDS, IN_DIM) * 2.0
    labels = torch.randint(0, N_IDS, (n,))
    x = centers[labels] + 0.3 * torch.randn(n, IN_DIM)
    return x, labels


def train(head_cls, steps=40):
    torch.manual_seed(1)
    backbone = nn.Sequential(nn.Linear(IN_DIM, 32), nn.ReLU(), nn.Linear(32, EMB_DIM))
    head = head_cls(EMB_DIM, N_IDS)
    params = list(backbone.parameters()) + list(head.parameters())
    opt = torch.optim.SGD(params, lr=0.2, momentum=0.9)
    head_weight_in_opt = head.linear.weight
    start = head_weight_in_opt.detach().clone()
    x, y = make_data()
    losses = []
    for _ in range(steps):
        logits = head(backbone(x), y)
        loss = F.cross_entropy(logits, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return head, head_weight_in_opt, start, losses


def main():
    head, w_opt, w0, losses = train(ArcFaceHead)
    assert w_opt.grad is None, "the optimizer's head weight should never get a gradient"
    assert torch.equal(w_opt.detach(), w0), "the optimizer's head weight should stay unchanged"
    assert head.linear.weight is not w_opt, "the module now holds a different, unregistered tensor"

    head_f, w_opt_f, w0_f, losses_f = train(ArcFaceHeadFixed)
    assert w_opt_f.grad is not None and w_opt_f.grad.abs().sum() > 0
    assert not torch.equal(w_opt_f.detach(), w0_f), "fixed head weight should be updated"
    assert head_f.linear.weight is w_opt_f
    assert losses_f[-1] < 0.5 * losses_f[0]

    print("buggy head: optimizer weight frozen (grad None); final loss %.3f" % losses[-1])
    print("fixed head: weight trained; loss %.3f -> %.3f" % (losses_f[0], losses_f[-1]))


if __name__ == "__main__":
    main()
