"""Search-space connection modules that combine the outputs of their child branches."""
from torch import nn


class Add(nn.Module):
    """Sum the outputs of all child branches applied to the same input."""

    def __init__(self, *branches):
        super().__init__()
        for i, branch in enumerate(branches):
            self.add_module(str(i), branch)

    def forward(self, x):
        output = None
        for branch in self.children():
            if output is None:
                output = branch(x)
            else:
                output += branch(x)
        return output


class Sequential(nn.Sequential):
    """Plain chain of child modules."""
