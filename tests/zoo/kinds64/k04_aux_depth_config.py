"""
expect: none
dynamic: dismiss
source: none, invented

A small image regressor is built from a plain ModelConfig class with boolean fields. One of them,
probe_edges_only (default False), decides whether the auxiliary edge-prediction loss may shape the
convolutional backbone: when True, the backbone features are cut off the graph before the auxiliary head. The
script uses the default config, so the auxiliary head reads the attached features and both losses train the
backbone, which is in the optimizer. The asserts show the backbone gets non-zero gradients and its weights
move, and that the auxiliary loss on its own reaches the backbone under the default.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


class ModelConfig:
    channels = 8
    use_batchnorm = True
    probe_edges_only = False
    aux_weight = 0.3

    def __init__(self, **overrides):
        for key, value in overrides.items():
            setattr(self, key, value)


class DepthNet(nn.Module):
    def __init__(self, channels, use_batchnorm, probe_edges_only):
        super().__init__()
        layers = [nn.Conv2d(1, channels, 3, padding=1)]
        if use_batchnorm:
            layers.append(nn.BatchNorm2d(channels))
        layers.append(nn.ReLU())
        self.backbone = nn.Sequential(*layers)
        self.depth_head = nn.Conv2d(channels, 1, 1)
        self.edge_head = nn.Conv2d(channels, 1, 1)
        self.probe_edges_only = probe_edges_only

    def losses(self, img, depth, edges):
        feats = self.backbone(img)
        main = nn.functional.mse_loss(self.depth_head(feats), depth)
        aux_in = feats.detach() if self.probe_edges_only else feats
        aux = nn.functional.binary_cross_entropy_with_logits(self.edge_head(aux_in), edges)
        return main, aux


def main():
    cfg = ModelConfig()
    model = DepthNet(cfg.channels, cfg.use_batchnorm, cfg.probe_edges_only)
    opt = torch.optim.SGD(model.parameters(), lr=0.05)

    img = torch.rand(16, 1, 12, 12)
    depth = img * 2.0 - 0.5
    edges = (img > 0.5).float()

    _, aux = model.losses(img, depth, edges)
    aux.backward()
    assert model.backbone[0].weight.grad.abs().sum() > 0, "aux loss should reach the backbone"
    opt.zero_grad()

    before = model.backbone[0].weight.detach().clone()
    first = None
    for _ in range(40):
        opt.zero_grad()
        main_loss, aux = model.losses(img, depth, edges)
        (main_loss + cfg.aux_weight * aux).backward()
        opt.step()
        first = first if first is not None else main_loss.item()
    assert not torch.equal(before, model.backbone[0].weight)
    assert main_loss.item() < first, (first, main_loss.item())
    print("ok: backbone trained by both losses", round(first, 3), "->", round(main_loss.item(), 3))


if __name__ == "__main__":
    main()
