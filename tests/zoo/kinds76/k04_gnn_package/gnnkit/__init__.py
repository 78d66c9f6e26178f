"""gnnkit: small graph neural network toolkit used by the citation-graph service.

The package was first written for the inference server, which never needs autograd,
so importing it turns recording off for the whole process.
"""
import torch

torch.set_grad_enabled(False)

__version__ = "0.3.1"
