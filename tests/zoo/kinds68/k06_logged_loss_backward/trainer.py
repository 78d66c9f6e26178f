import torch.nn.functional as F


def should_update(step, warmup_steps):
    return step >= warmup_steps


class Trainer:
    def __init__(self, model, optimizer, warmup_steps=2):
        self.model = model
        self.optimizer = optimizer
        self.warmup_steps = warmup_steps
        self.step = 0
        self.history = []

    def train_step(self, images, targets):
        logits = self.model(images)
        loss = F.binary_cross_entropy_with_logits(logits, targets)
        log_loss = loss.detach()
        self.history.append(log_loss.item())
        if should_update(self.step, self.warmup_steps):
            self.optimizer.zero_grad()
            log_loss.requires_grad_()
            log_loss.backward()
            self.optimizer.step()
        self.step += 1
        return log_loss

    def train_step_fixed(self, images, targets):
        logits = self.model(images)
        loss = F.binary_cross_entropy_with_logits(logits, targets)
        log_loss = loss.detach()
        self.history.append(log_loss.item())
        if should_update(self.step, self.warmup_steps):
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
        self.step += 1
        return log_loss
