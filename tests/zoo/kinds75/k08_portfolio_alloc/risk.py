"""Risk measures for portfolio return paths."""
import torch


def max_drawdown_py(path_returns):
    """Largest peak-to-trough fall of the cumulative wealth path, per sample,
    averaged over the batch. Written with plain Python loops so that it matches
    the reporting spreadsheet exactly."""
    worst = []
    for row in path_returns.tolist():
        wealth, peak, dd = 1.0, 1.0, 0.0
        for r in row:
            wealth *= 1.0 + r
            peak = max(peak, wealth)
            dd = max(dd, (peak - wealth) / peak)
        worst.append(dd)
    return torch.tensor(sum(worst) / len(worst), requires_grad=True)


def max_drawdown_torch(path_returns):
    wealth = torch.cumprod(1.0 + path_returns, dim=-1)
    wealth = torch.cat([torch.ones_like(wealth[:, :1]), wealth], dim=-1)
    peak = torch.cummax(wealth, dim=-1).values
    return ((peak - wealth) / peak).amax(dim=-1).mean()


def mean_return(path_returns):
    return path_returns.mean()
