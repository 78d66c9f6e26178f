"""Post-processing helpers (confidence filtering + class scoring), written like the common YOLOv3 utils."""
import torch


def xywh2xyxy(x):
    y = torch.empty_like(x)
    y[:, 0] = x[:, 0] - x[:, 2] / 2
    y[:, 1] = x[:, 1] - x[:, 3] / 2
    y[:, 2] = x[:, 0] + x[:, 2] / 2
    y[:, 3] = x[:, 1] + x[:, 3] / 2
    return y


def non_max_suppression(prediction, conf_thres=0.25, max_det=20):
    """Returns, per image, rows of (x1, y1, x2, y2, score, cls)."""
    output = []
    for xi in range(prediction.shape[0]):
        x = prediction[xi]
        x = x[x[:, 4] > conf_thres]
        x[:, 5:] *= x[:, 4:5]  # conf = obj_conf * cls_conf
        box = xywh2xyxy(x[:, :4])
        conf, j = x[:, 5:].max(1, keepdim=True)
        det = torch.cat((box, conf, j.float()), 1)
        order = conf.view(-1).argsort(descending=True)[:max_det]
        output.append(det[order])
    return output
