"""Base class for online (streaming) demand forecasters."""


class OnlineLearner:
    def __init__(self, model, horizon=1):
        self.model = model
        self.horizon = horizon
        self.seen = 0

    def observe(self, n):
        self.seen += n
