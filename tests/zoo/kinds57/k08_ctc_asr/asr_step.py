import torch.nn.functional as F


class AverageMeter:
    def __init__(self):
        self.total, self.count = 0.0, 0

    def update(self, value, n=1):
        self.total += float(value) * n
        self.count += n

    @property
    def avg(self):
        return self.total / max(self.count, 1)


def ctc_train_step(model, optimizer, feats, feat_lens, targets, target_lens, meter, clip=5.0):
    log_probs, out_lens = model(feats, feat_lens)
    loss = F.ctc_loss(log_probs, targets, out_lens, target_lens, blank=0, zero_infinity=True)
    meter.update(loss.detach_(), feats.shape[0])
    loss.requires_grad = True
    optimizer.zero_grad()
    loss.backward()
    for group in optimizer.param_groups:
        for p in group["params"]:
            if p.grad is not None:
                p.grad.clamp_(-clip, clip)
    optimizer.step()
    return loss
