"""
expect: GL005 roi_extractor.py:29, GL005 roi_extractor.py:33
dynamic: confirm
source: https://github.com/cizhenshi/TianchiGuangdong2019_2th/issues/6

A two-stage fabric-defect detector: a small backbone, a RoI extractor and a
box head. The extractor adds a global-context vector (average-pooled image
feature through a linear layer) to every RoI of the same image, and it does so
in place, image by image, with roi_feats[img_ids == j] += context[j]. The RoI
features are the output of a ReLU, which autograd saved for its backward, so
the in-place index write bumps their version and backward fails with "one of
the variables needed for gradient computation has been modified by an inplace
operation". The rewrite the reporter tried, roi_feats[mask] = roi_feats[mask] +
context[j], is still an in-place index_put_ on the same saved tensor and fails
the same way. The asserts catch both RuntimeErrors and show that gathering the
context per RoI out of place trains the backbone, the adaptor and the context
layer.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from roi_extractor import ContextRoIExtractor


class TinyDetector(nn.Module):
    def __init__(self, mode, channels=8, n_classes=3):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, channels, 3, padding=1), nn.ReLU(),
                                      nn.Conv2d(channels, channels, 3, stride=2, padding=1))
        self.roi_extractor = ContextRoIExtractor(channels, out_size=4, mode=mode)
        self.box_head = nn.Sequential(nn.Flatten(), nn.Linear(channels * 16, 32), nn.ReLU())
        self.cls = nn.Linear(32, n_classes)
        self.reg = nn.Linear(32, 4)

    def forward(self, images, rois):
        feat = self.backbone(images)
        h = self.box_head(self.roi_extractor(feat, rois))
        return self.cls(h), self.reg(h)


def train_step(mode):
    torch.manual_seed(0)
    model = TinyDetector(mode)
    images = torch.randn(2, 3, 32, 32)
    rois = torch.tensor([[0, 0, 0, 8, 8], [0, 4, 2, 12, 10], [0, 9, 9, 16, 16],
                         [1, 1, 1, 7, 9], [1, 6, 3, 15, 12]], dtype=torch.float)
    labels = torch.tensor([1, 0, 2, 1, 2])
    box_targets = torch.randn(5, 4)
    logits, deltas = model(images, rois)
    loss = F.cross_entropy(logits, labels) + F.smooth_l1_loss(deltas, box_targets)
    loss.backward()
    return model


if __name__ == "__main__":
    torch.set_num_threads(1)
    for mode in ("iadd", "assign"):
        try:
            train_step(mode)
        except RuntimeError as err:
            assert "modified by an inplace operation" in str(err), err
        else:
            raise AssertionError(f"{mode}: backward should have failed")

    model = train_step("gather")
    for name in ("backbone.0.weight", "roi_extractor.adapt.weight", "roi_extractor.context_fc.weight"):
        grad = dict(model.named_parameters())[name].grad
        assert grad is not None and grad.abs().sum() > 0, name
    print("in-place context add: backward fails; out-of-place gather: all layers get gradients")
