"""Simplified Jensen/Gaussian wake model for a single row of turbines."""
import torch


class TurbineRow:
    def __init__(self, n_turbines=5, spacing_d=6.0, wind_speed=9.0, k_wake=0.06, ct=0.8):
        self.x = torch.arange(n_turbines, dtype=torch.float32) * spacing_d
        self.u_inf = wind_speed
        self.k = k_wake
        self.ct = ct

    def power(self, yaw_rad):
        """Total farm power (arbitrary units) for yaw offsets (radians) of each turbine."""
        n = len(self.x)
        u = torch.full((n,), self.u_inf)
        speeds = []
        for i in range(n):
            deficit = torch.zeros(())
            for j in range(i):
                dx = self.x[i] - self.x[j]
                # deflection of wake j at turbine i grows with yaw of j
                deflect = 0.6 * torch.sin(yaw_rad[j]) * torch.cos(yaw_rad[j]) ** 2 * dx / (1 + self.k * dx)
                width = 1 + 2 * self.k * dx
                strength = (1 - torch.sqrt(1 - self.ct * torch.cos(yaw_rad[j]) ** 2)) / width ** 2
                deficit = deficit + (strength * torch.exp(-0.5 * (deflect / (0.5 * width)) ** 2)) ** 2
            speeds.append(u[i] * (1 - torch.sqrt(deficit + 1e-12)))
        speeds = torch.stack(speeds)
        return (speeds ** 3 * torch.cos(yaw_rad) ** 1.88).sum() / self.u_inf ** 3
