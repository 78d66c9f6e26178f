"""
expect: GL001 27
dynamic: confirm
source: none, invented

A tiny road-segmentation network: a shared conv backbone, an auxiliary edge head that produces an edge map, and
a mask head that takes the backbone features concatenated with the edge map. The edge map is fed to the mask head
`.detach()`ed because it is supposed to be trained by its own auxiliary edge loss. The training loop unpacks both
outputs but only puts the mask loss into the objective; the auxiliary loss is missing. Because of the detach, no
gradient reaches the edge head at all, so it stays random and the mask head consumes noise. This is a bug.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class RoadSegmenter(nn.Module):
    def __init__(self, ch=16):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, ch, 3, padding=1), nn.ReLU())
        self.edge_head = nn.Conv2d(ch, 1, 3, padding=1)
        self.mask_head = nn.Conv2d(ch + 1, 1, 3, padding=1)

    def forward(self, image):
        feats = self.backbone(image)
        edges = torch.sigmoid(self.edge_head(feats))
        mask_in = torch.cat([feats, edges.detach()], dim=1)
        mask_logits = self.mask_head(mask_in)
        return mask_logits, edges


def main():
    torch.manual_seed(0)
    model = RoadSegmenter()
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    edge_before = [p.detach().clone() for p in model.edge_head.parameters()]
    for step in range(15):
        image = torch.randn(4, 3, 32, 32)
        road = (torch.rand(4, 1, 32, 32) > 0.5).float()
        mask_logits, edges = model(image)
        loss = F.binary_cross_entropy_with_logits(mask_logits, road)
        opt.zero_grad()
        loss.backward()
        opt.step()
        assert all(p.grad is None for p in model.edge_head.parameters()), "edge head got gradient?"
    assert all(torch.equal(a, p) for a, p in zip(edge_before, model.edge_head.parameters())), "edge head changed"
    assert model.backbone[0].weight.grad is not None
    print("bug confirmed: auxiliary edge head never trained")


if __name__ == "__main__":
    main()
