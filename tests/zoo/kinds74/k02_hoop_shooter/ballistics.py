"""Ball flight with quadratic air drag, integrated with semi-implicit Euler."""
import math

import torch


class BallFlight:
    def __init__(self, launch_angle_deg=52.0, drag_coeff=0.012, gravity=9.81, dt=2e-3):
        self.angle = math.radians(launch_angle_deg)
        self.k = drag_coeff
        self.g = gravity
        self.dt = dt

    def height_at(self, speed, target_x, release_height=1.1):
        """Height of the ball when it crosses x = target_x (linear interp between steps)."""
        pos = torch.stack([torch.zeros(()), torch.full((), release_height)])
        vel = torch.stack([speed * math.cos(self.angle), speed * math.sin(self.angle)])
        for _ in range(4000):
            acc = torch.stack([torch.zeros(()), torch.full((), -self.g)]) - self.k * vel.norm() * vel
            vel = vel + self.dt * acc
            new_pos = pos + self.dt * vel
            if new_pos[0] >= target_x:
                frac = (target_x - pos[0]) / (new_pos[0] - pos[0])
                return pos[1] + frac * (new_pos[1] - pos[1])
            pos = new_pos
        return pos[1]
