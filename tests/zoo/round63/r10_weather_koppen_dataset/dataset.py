import torch
from torch.utils.data import Dataset


def prepare_model_input(weather, koppen_code, koppen_embed_layer):
    """weather: [T, N, V] normalised fields -> [T, N, V + E] with the climate-zone embedding."""
    num_time, num_nodes, _ = weather.shape
    koppen_tensor = torch.tensor([koppen_code], dtype=torch.long)
    koppen_embed = koppen_embed_layer(koppen_tensor)  # [1, E]
    koppen_expanded = koppen_embed.unsqueeze(0).expand(num_time, num_nodes, -1)
    return torch.cat([weather, koppen_expanded], dim=-1)


class WeatherGraphDataset(Dataset):
    """Sliding windows over a [T, N, C] feature cube; targets are the weather variables."""

    def __init__(self, features, window_size=4, forecast_horizon=1, num_weather_vars=3):
        self.features = features
        self.window_size = window_size
        self.forecast_horizon = forecast_horizon
        self.num_weather_vars = num_weather_vars
        self.num_nodes = features.shape[1]
        self.valid_indices = range(window_size, len(features) - forecast_horizon)

    def __len__(self):
        return len(self.valid_indices)

    def __getitem__(self, idx):
        t = self.valid_indices[idx]
        window = self.features[t - self.window_size:t]  # [W, N, C]
        x = window.permute(1, 0, 2).reshape(self.num_nodes, -1)  # one row per node
        y = self.features[t + self.forecast_horizon, :, : self.num_weather_vars]
        return x.clone().detach(), y.clone().detach()
