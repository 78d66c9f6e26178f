"""
expect: GL005 postprocess.py:20
dynamic: confirm
source: https://github.com/withtimesgo1115/gradCAM-YOLOv3-pytorch/issues/4

Grad-CAM for a YOLO-style detector: the detector's head ends in a sigmoid, the
post-processing keeps the confident rows and then multiplies the class scores by
the objectness in place (`x[:, 5:] *= x[:, 4:5]`), and Grad-CAM backpropagates
the best detection score to the tapped backbone feature map. The in-place multiply
writes into the very tensor whose objectness column slice was saved by that same
multiply for backward, so backward stops with "modified by an inplace operation"
(in the report: an [N, 1] slice "at version 2; expected version 0"). The program asserts that this
RuntimeError is raised and that the out-of-place product (the clone fix given in
the thread) lets the gradient reach the feature map.
"""
import torch

from detector import TinyYolo
from postprocess import non_max_suppression, xywh2xyxy


class GradCAM:
    def __init__(self, net):
        self.net = net.eval()

    def __call__(self, image, nms):
        pred = self.net(image)
        det = nms(pred, conf_thres=0.3)[0]
        score = det[:, 4].max()
        self.net.zero_grad()
        score.backward()
        weights = self.net.gradients.mean(dim=(2, 3), keepdim=True)
        cam = torch.relu((weights * self.net.activations).sum(1))
        return cam.detach(), self.net.gradients


def nms_out_of_place(prediction, conf_thres=0.25, max_det=20):
    output = []
    for xi in range(prediction.shape[0]):
        x = prediction[xi]
        x = x[x[:, 4] > conf_thres]
        scores = x[:, 5:] * x[:, 4:5]
        box = xywh2xyxy(x[:, :4])
        conf, j = scores.max(1, keepdim=True)
        det = torch.cat((box, conf, j.float()), 1)
        order = conf.view(-1).argsort(descending=True)[:max_det]
        output.append(det[order])
    return output


torch.manual_seed(0)
torch.set_num_threads(1)
net = TinyYolo()
image = torch.rand(1, 3, 16, 16)

cam = GradCAM(net)
try:
    cam(image, non_max_suppression)
    raise AssertionError("backward through the in-place post-processing unexpectedly succeeded")
except RuntimeError as err:
    assert "modified by an inplace operation" in str(err), err

heatmap, grads = cam(image, nms_out_of_place)
assert grads is not None and grads.abs().sum() > 0
assert heatmap.shape == (1, 8, 8)
print("grad-cam heatmap ok, max:", round(float(heatmap.max()), 4))
