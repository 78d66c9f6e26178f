"""
expect: none
dynamic: dismiss
source: https://github.com/potterhsu/easy-faster-rcnn.pytorch/issues/24

A compact Faster R-CNN: backbone, region proposal network and a second-stage
head, in three files. The RPN decodes its box deltas into proposals and hands
them to the second stage with .detach(), and the head reads the proposal
corners with .item() to cut integer crop windows from the feature map. Both
look like a broken graph, but they are the usual approximate joint training:
the RPN's regression branch is trained by its own anchor loss, the head by its
classification and refinement losses, and the backbone by both. The asserts
check that the proposals carry no history, that every trainable layer
(backbone, RPN convs, head) gets a gradient, that the RPN delta gradient of
the total loss equals that of the RPN loss alone, and that the total loss
falls over a few SGD steps on one image.
"""
import torch
import torch.nn as nn

from roi_head import DetectionHead
from rpn import RegionProposalNetwork


class FasterRCNN(nn.Module):
    def __init__(self, channels=16, n_classes=3, stride=4, img=32, anchor=10):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, channels, 3, padding=1), nn.ReLU(),
                                      nn.Conv2d(channels, channels, 3, stride=2, padding=1), nn.ReLU(),
                                      nn.Conv2d(channels, channels, 3, stride=2, padding=1), nn.ReLU())
        cells = img // stride
        centers = (torch.arange(cells, dtype=torch.float) + 0.5) * stride
        cy, cx = torch.meshgrid(centers, centers, indexing="ij")
        anchors = torch.stack([cx - anchor / 2, cy - anchor / 2, cx + anchor / 2, cy + anchor / 2], -1)
        self.rpn = RegionProposalNetwork(channels, anchors.reshape(-1, 4))
        self.head = DetectionHead(channels, n_classes, stride)

    def losses(self, image, gt_boxes, gt_labels):
        features = self.backbone(image)
        scores, deltas, proposals = self.rpn(features)
        rpn_obj, rpn_box = self.rpn.loss(scores, deltas, gt_boxes)
        logits, box_deltas = self.head(features, proposals)
        cls_loss, reg_loss = self.head.loss(logits, box_deltas, proposals, gt_boxes, gt_labels)
        return proposals, rpn_obj + rpn_box, cls_loss + reg_loss


if __name__ == "__main__":
    torch.set_num_threads(1)
    torch.manual_seed(0)
    model = FasterRCNN()
    image = torch.randn(1, 3, 32, 32)
    gt_boxes = torch.tensor([[4.0, 5.0, 15.0, 14.0], [18.0, 16.0, 29.0, 27.0]])
    gt_labels = torch.tensor([1, 2])

    proposals, rpn_loss, head_loss = model.losses(image, gt_boxes, gt_labels)
    assert proposals.grad_fn is None and not proposals.requires_grad

    rpn_only = torch.autograd.grad(rpn_loss, model.rpn.deltas.weight, retain_graph=True)[0]
    (rpn_loss + head_loss).backward()
    assert torch.allclose(model.rpn.deltas.weight.grad, rpn_only)
    for name, p in model.named_parameters():
        assert p.grad is not None and p.grad.abs().sum() > 0, name

    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    history = []
    for _ in range(40):
        opt.zero_grad()
        _, rpn_loss, head_loss = model.losses(image, gt_boxes, gt_labels)
        total = rpn_loss + head_loss
        total.backward()
        opt.step()
        history.append(total.item())
    assert sum(history[-5:]) < 0.5 * sum(history[:5]), history
    print(f"total loss {history[0]:.3f} -> {history[-1]:.3f}; every layer trained")
