"""Deep CORAL baseline for geometric models under distribution shift (source + target point clouds)."""
import torch
import torch.nn.functional as F


class Coral:
    def __init__(self, model, coeff=1.0):
        self.model = model
        self.coeff = coeff

    def compute_covariance(self, feats):
        n = feats.shape[0]
        ones = torch.ones((1, n))
        tmp = ones @ feats
        return (feats.t() @ feats - (tmp.t() @ tmp) / n) / (n - 1)

    def feat_postprocess(self, src_feats, trg_feats):
        coral_loss_list = []
        dis = self.compute_covariance(src_feats) - self.compute_covariance(trg_feats)
        cov_loss = torch.mean(torch.mul(dis, dis)) / 4
        coral_loss_list.append(cov_loss)
        coral_loss = torch.tensor(0) if len(coral_loss_list) == 0 else torch.tensor(coral_loss_list).mean()
        return coral_loss * self.coeff

    def forward_pass(self, data_s, data_t):
        x = torch.cat([data_s["x"], data_t["x"]], dim=0)
        pos = torch.cat([data_s["pos"], data_t["pos"]], dim=0)
        batch = torch.cat([data_s["batch"], data_t["batch"] + data_s["batch"].max() + 1])
        feats = self.model.geo_dat_repr(x, pos, batch)
        logits = self.model.clf_out(feats)
        src_logits, _ = torch.chunk(logits, 2)
        src_feats, trg_feats = torch.chunk(feats, 2)
        pred_loss = F.cross_entropy(src_logits, data_s["y"])
        coral_loss = self.feat_postprocess(src_feats, trg_feats)
        loss = pred_loss + coral_loss
        return loss, {"pred": pred_loss.item(), "coral": coral_loss.item()}
