"""Demo: predict tonnes/ha for a batch of parcels from a saved regressor.

    python predict_parcels.py --ckpt yield.pt

Also home of the spectral-index feature helper shared with training.
"""
import argparse

import torch

from model import YieldRegressor

torch.set_grad_enabled(False)

BANDS = ("blue", "green", "red", "red_edge", "nir", "swir")


def vegetation_features(bands):
    """bands: (parcels, dates, 6) reflectances -> (parcels, n_features)."""
    blue, green, red, red_edge, nir, swir = bands.unbind(-1)
    ndvi = (nir - red) / (nir + red + 1e-6)
    ndre = (nir - red_edge) / (nir + red_edge + 1e-6)
    ndwi = (green - nir) / (green + nir + 1e-6)
    nbr = (nir - swir) / (nir + swir + 1e-6)
    season = torch.stack([ndvi, ndre, ndwi, nbr], dim=-1)
    return torch.cat([season.mean(dim=1), season.amax(dim=1), season.std(dim=1)], dim=-1)


def load_regressor(path):
    state = torch.load(path, map_location="cpu")
    model = YieldRegressor(n_features=12)
    model.load_state_dict(state)
    return model.eval()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--ckpt", default=None)
    args = parser.parse_args()
    model = load_regressor(args.ckpt) if args.ckpt else YieldRegressor(n_features=12).eval()
    bands = torch.rand(5, 10, len(BANDS))
    for parcel, t_ha in enumerate(model(vegetation_features(bands)).tolist()):
        print(f"parcel {parcel}: {t_ha:.2f} t/ha")


if __name__ == "__main__":
    main()
