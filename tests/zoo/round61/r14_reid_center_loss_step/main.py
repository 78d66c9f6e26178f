"""
expect: GL005 metric_losses.py:40
dynamic: confirm
source: https://github.com/openvinotoolkit/deep-object-reid/blob/1f2d414472a8971f17db0072a7b45fd3393e8022/torchreid/losses/metric.py

In deep-object-reid (person re-identification) the AM-softmax engine adds optional
metric losses per model. Before commit d47bea9 ("Fix training with center loss") the
engine called ml_loss_module.end_iteration() right after computing the metric loss,
inside the per-model loss loop; end_iteration() backpropagated that loss with
retain_graph=True and then called center_optimizer.step(). The same metric loss was
also added to total_loss, whose backward() comes later - but the center-loss graph
saved the centers (F.normalize of the center parameter), and the optimizer step has
already changed them in place, so training with center loss failed with "modified by
an inplace operation". The fix moved end_iteration() after total_loss.backward().
Here a tiny re-ID embedding net with a cross-entropy ID head and the center loss
reproduces the engine order: the asserts catch the RuntimeError, and show the centers
moved while the backbone never got its step; calling end_iteration() after the total
backward (a simplified form of that fix that steps the centers with the gradient
total_loss already produced) trains
backbone and centers and lowers the center loss.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from metric_losses import MetricLosses

torch.manual_seed(0)
torch.set_num_threads(1)

N_IDS, IN_DIM, EMB = 8, 32, 12


def make_batch(n=32):
    protos = torch.randn(N_IDS, IN_DIM)
    ids = torch.arange(n) % N_IDS
    crops = protos[ids] + 0.5 * torch.randn(n, IN_DIM)   # stand-in for pedestrian crops
    return crops, ids


def build():
    torch.manual_seed(0)
    backbone = nn.Sequential(nn.Linear(IN_DIM, 48), nn.ReLU(), nn.Linear(48, EMB))
    id_head = nn.Linear(EMB, N_IDS)
    optimizer = torch.optim.SGD(list(backbone.parameters()) + list(id_head.parameters()), lr=0.1)
    ml = MetricLosses(N_IDS, EMB)
    return backbone, id_head, optimizer, ml


def train_step(backbone, id_head, optimizer, ml, crops, ids, fixed):
    optimizer.zero_grad()
    ml.init_iteration()
    feats = backbone(crops)
    total_loss = F.cross_entropy(id_head(feats), ids)
    ml_loss = ml(feats, ids)
    if not fixed:
        ml.end_iteration()
    total_loss = total_loss + ml_loss
    total_loss.backward()
    if fixed:
        ml.end_iteration(run_backward=False)
    optimizer.step()
    return ml_loss.item()


def main():
    crops, ids = make_batch()

    backbone, id_head, optimizer, ml = build()
    w0 = backbone[0].weight.detach().clone()
    c0 = ml.center_loss.centers.detach().clone()
    try:
        train_step(backbone, id_head, optimizer, ml, crops, ids, fixed=False)
        raised = None
    except RuntimeError as err:
        raised = str(err)
    assert raised is not None and "modified by an inplace operation" in raised
    assert not torch.equal(ml.center_loss.centers.detach(), c0)
    assert torch.equal(backbone[0].weight.detach(), w0)

    backbone, id_head, optimizer, ml = build()
    w0 = backbone[0].weight.detach().clone()
    c0 = ml.center_loss.centers.detach().clone()
    hist = [train_step(backbone, id_head, optimizer, ml, crops, ids, fixed=True) for _ in range(30)]
    assert not torch.equal(backbone[0].weight.detach(), w0)
    assert not torch.equal(ml.center_loss.centers.detach(), c0)
    assert hist[-1] < hist[0]

    print("end_iteration inside the loss loop: in-place failure reproduced, backbone not stepped")
    print("end_iteration after total backward: center loss %.3f -> %.3f" % (hist[0], hist[-1]))


if __name__ == "__main__":
    main()
