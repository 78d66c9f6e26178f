"""Segment-wise trainer with one auxiliary classifier per network segment (DCP-style auxnet)."""
import torch
import torch.nn as nn


class AuxTrainer:
    def __init__(self, segments, aux_heads, lr=0.05, pivot_weight=None, detach_between_segments=False):
        self.segments = segments
        self.aux_heads = aux_heads
        self.criterion = nn.CrossEntropyLoss()
        self.detach_between_segments = detach_between_segments
        self.pivot_weight = pivot_weight or [1.0] * len(segments)
        self.seg_optimizer = []
        self.fc_optimizer = []
        for i in range(len(segments)):
            # the i-th optimizer holds segments 0..i, so the i-th loss also trains the shallower segments
            groups = [{"params": segments[j].parameters()} for j in range(i + 1)]
            self.seg_optimizer.append(torch.optim.SGD(groups, lr=lr, momentum=0.9))
            self.fc_optimizer.append(torch.optim.SGD(aux_heads[i].parameters(), lr=lr, momentum=0.9))

    def forward(self, images, labels):
        outputs, losses = [], []
        temp_input = images
        for segment, head in zip(self.segments, self.aux_heads):
            temp_output = segment(temp_input)
            logits = head(temp_output)
            outputs.append(logits)
            losses.append(self.criterion(logits, labels))
            temp_input = temp_output.detach() if self.detach_between_segments else temp_output
        return outputs, losses

    def backward_for_loss_i(self, loss, i):
        self.seg_optimizer[i].zero_grad()
        self.fc_optimizer[i].zero_grad()
        loss.backward(retain_graph=True)
        for group in self.seg_optimizer[i].param_groups:
            for p in group["params"]:
                if p.grad is not None:
                    p.grad.mul_(self.pivot_weight[i])
        self.fc_optimizer[i].step()
        self.seg_optimizer[i].step()

    def train_step(self, images, labels):
        outputs, losses = self.forward(images, labels)
        for j in range(len(losses)):
            self.backward_for_loss_i(losses[j], j)
        return [l.item() for l in losses]
