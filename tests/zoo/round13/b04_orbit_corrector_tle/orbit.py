import dataclasses
import math

import torch

MU_EARTH = 398600.4418  # km^3/s^2


@dataclasses.dataclass
class OrbitModel:
    satellite_catalog_number: int
    epoch_days: float
    mean_motion: float  # rad/min
    eccentricity: float
    inclination: float
    raan: float
    argument_of_perigee: float
    mean_anomaly: float

    @classmethod
    def from_prediction(cls, sat_id, epoch, base, correction):
        """Apply a network's correction to a base element set."""
        fields = {}
        for i, name in enumerate(["mean_motion", "eccentricity", "inclination", "raan",
                                  "argument_of_perigee", "mean_anomaly"]):
            fields[name] = base[i] + correction[i].item()
        return cls(satellite_catalog_number=sat_id, epoch_days=epoch, **fields)

    def element_tensor(self):
        """Elements as a differentiable tensor (like initialize_tle(..., with_grad=True))."""
        values = [self.mean_motion, self.eccentricity, self.inclination, self.raan,
                  self.argument_of_perigee, self.mean_anomaly]
        return torch.tensor(values, dtype=torch.float64, requires_grad=True)


def propagate(elements, tsince_min):
    """Two-body position (km) at the given minutes since epoch; differentiable in elements."""
    n, e, inc, raan, argp, m0 = elements.unbind()
    a = (MU_EARTH / (n / 60.0) ** 2) ** (1.0 / 3.0)
    m = m0 + n * tsince_min
    ecc_anom = m
    for _ in range(8):
        ecc_anom = ecc_anom - (ecc_anom - e * torch.sin(ecc_anom) - m) / (1 - e * torch.cos(ecc_anom))
    nu = 2 * torch.atan2(torch.sqrt(1 + e) * torch.sin(ecc_anom / 2), torch.sqrt(1 - e) * torch.cos(ecc_anom / 2))
    r = a * (1 - e * torch.cos(ecc_anom))
    u = argp + nu
    x = r * (torch.cos(raan) * torch.cos(u) - torch.sin(raan) * torch.sin(u) * torch.cos(inc))
    y = r * (torch.sin(raan) * torch.cos(u) + torch.cos(raan) * torch.sin(u) * torch.cos(inc))
    z = r * torch.sin(u) * torch.sin(inc)
    return torch.stack([x, y, z], dim=-1)


BASE_ELEMENTS = [2 * math.pi / 95.0, 0.001, 0.9, 1.2, 0.3, 0.1]
