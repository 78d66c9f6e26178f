"""Trainer for a two-head (segmentation + depth) network with one backward per task loss."""
import torch.nn.functional as F


class MultiTaskTrainer:
    def __init__(self, model, optimizer, keep_last_graph=True):
        self.model = model
        self.optimizer = optimizer
        self.keep_last_graph = keep_last_graph
        self.running_loss = 0.0

    def step(self, images, seg_target, depth_target):
        seg_logits, depth = self.model(images)
        loss_seg = F.cross_entropy(seg_logits, seg_target)
        loss_depth = F.l1_loss(depth, depth_target)
        self.optimizer.zero_grad()
        loss_seg.backward(retain_graph=True)
        if self.keep_last_graph:
            loss_depth.backward(retain_graph=True)
        else:
            loss_depth.backward()
        self.optimizer.step()
        self.running_loss = self.running_loss + loss_seg + loss_depth
        return self.running_loss


class FixedMultiTaskTrainer(MultiTaskTrainer):
    def step(self, images, seg_target, depth_target):
        seg_logits, depth = self.model(images)
        loss = F.cross_entropy(seg_logits, seg_target) + F.l1_loss(depth, depth_target)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        self.running_loss += loss.item()
        return self.running_loss
