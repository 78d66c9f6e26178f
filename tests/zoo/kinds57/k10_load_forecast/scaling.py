import torch


class MinMaxScaler:
    """Column-wise min/max scaling fitted on the training split."""

    def fit(self, values):
        self.lo = values.min(0).values
        self.hi = values.max(0).values
        return self

    def transform(self, values):
        return (values - self.lo) / (self.hi - self.lo)

    def inverse_transform(self, scaled):
        return scaled * (self.hi - self.lo) + self.lo
