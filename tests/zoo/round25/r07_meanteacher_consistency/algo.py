import copy

import torch
import torch.nn.functional as F


class EMA:
    def __init__(self, model, decay=0.99):
        self.decay = decay
        self.shadow = copy.deepcopy(model)
        for p in self.shadow.parameters():
            p.requires_grad_(False)

    @torch.no_grad()
    def update(self, model):
        for s, p in zip(self.shadow.parameters(), model.parameters()):
            s.mul_(self.decay).add_(p, alpha=1 - self.decay)


class MeanTeacher:
    def __init__(self, model, lr=0.05, unsup_weight=1.0, fixed=False):
        self.model = model
        self.ema = EMA(model)
        self.opt = torch.optim.SGD(model.parameters(), lr=lr)
        self.unsup_weight = unsup_weight
        self.fixed = fixed

    def forward_outs(self, net, x):
        feat = net[:-1](x)
        return {"feat": feat, "logits": net[-1](feat)}

    def train_step(self, x_lb, y_lb, x_ulb_w, x_ulb_s):
        outs_lb = self.forward_outs(self.model, x_lb)
        sup_loss = F.cross_entropy(outs_lb["logits"], y_lb)

        with torch.no_grad():
            outs_x_ulb_w = self.forward_outs(self.ema.shadow, x_ulb_w)
            logits_x_ulb_w = outs_x_ulb_w["logits"]

        outs_x_ulb_s = self.forward_outs(self.model, x_ulb_s)
        if self.fixed:
            logits_x_ulb_s = outs_x_ulb_s["logits"]
        else:
            logits_x_ulb_s = outs_x_ulb_w["logits"]

        unsup_loss = F.mse_loss(logits_x_ulb_s.softmax(-1), logits_x_ulb_w.softmax(-1))
        total = sup_loss + self.unsup_weight * unsup_loss
        self.opt.zero_grad()
        total.backward()
        grads = [p.grad.clone() for p in self.model.parameters()]
        self.opt.step()
        self.ema.update(self.model)
        return unsup_loss, grads
