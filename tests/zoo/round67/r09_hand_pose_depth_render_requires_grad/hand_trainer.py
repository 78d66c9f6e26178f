"""Trainer for a depth-image -> hand-pose regressor (pretrain_depth style)."""
import torch
import torch.nn as nn

from hand_utils import (IMG, LinearHand, Mano2depth, mesh2depth_torch, regularizer_loss,
                        regularizer_loss_torch)


class HMR(nn.Module):
    def __init__(self, n_ang=6):
        super().__init__()
        self.encoder = nn.Sequential(nn.Flatten(), nn.Linear(IMG * IMG, 64), nn.ReLU(),
                                     nn.Linear(64, n_ang))

    def forward(self, depth_image):
        return self.encoder(depth_image)


class Trainer:
    def __init__(self, model, hand, cfg):
        self.model = model
        self.hand = hand
        self.cfg = cfg
        self.optimizer = torch.optim.Adam(model.parameters(), lr=cfg['lr'])
        self.depth_criterion = nn.SmoothL1Loss(reduction='mean')
        self.param_criterion = nn.MSELoss(reduction='mean')

    def losses(self, depth_image, target_ang):
        ang = self.model(depth_image)
        vert = self.hand.forward(ang)
        pred_depth = Mano2depth(vert).mesh2depth()
        depth_loss = self.depth_criterion(pred_depth, depth_image.squeeze(1))
        reg_loss = torch.tensor(regularizer_loss(ang, self.hand.ang_limit))
        param_loss = self.param_criterion(ang, target_ang)

        if self.cfg['depth_loss_weight'] != 0:
            depth_loss.requires_grad_(True)
        if self.cfg['reg_loss_weight'] != 0:
            reg_loss.requires_grad_(True)
        return depth_loss, reg_loss, param_loss

    def train_step(self, depth_image, target_ang):
        depth_loss, reg_loss, param_loss = self.losses(depth_image, target_ang)
        loss = depth_loss * self.cfg['depth_loss_weight'] + reg_loss * self.cfg['reg_loss_weight'] \
            + param_loss * self.cfg['params_loss_weight']
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return depth_loss.item()

    def train_step_fixed(self, depth_image, target_ang):
        ang = self.model(depth_image)
        pred_depth = mesh2depth_torch(self.hand.forward(ang))
        depth_loss = self.depth_criterion(pred_depth, depth_image.squeeze(1))
        reg_loss = regularizer_loss_torch(ang, self.hand.ang_limit)
        param_loss = self.param_criterion(ang, target_ang)
        loss = depth_loss * self.cfg['depth_loss_weight'] + reg_loss * self.cfg['reg_loss_weight'] \
            + param_loss * self.cfg['params_loss_weight']
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return depth_loss.item()
