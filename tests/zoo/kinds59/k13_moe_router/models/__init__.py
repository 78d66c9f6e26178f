from .block import MoEBlock

__all__ = ["MoEBlock"]
