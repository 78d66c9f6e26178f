"""SD3-style text encoding strategy: two CLIP-like encoders produce the sequence and pooled conditioning."""
import torch


class Sd3TextEncodingStrategy:
    def encode_tokens(self, models, tokens):
        clip_l, clip_g = models
        l_tokens, g_tokens = tokens
        with torch.no_grad():
            l_out, l_pooled = clip_l(l_tokens)
            g_out, g_pooled = clip_g(g_tokens)
        lg_out = torch.cat([l_out, g_out], dim=-1)
        lg_pooled = torch.cat([l_pooled, g_pooled], dim=-1)
        return lg_out, lg_pooled


class Sd3TextEncodingStrategyFixed(Sd3TextEncodingStrategy):
    def encode_tokens(self, models, tokens):
        clip_l, clip_g = models
        l_out, l_pooled = clip_l(tokens[0])
        g_out, g_pooled = clip_g(tokens[1])
        return torch.cat([l_out, g_out], dim=-1), torch.cat([l_pooled, g_pooled], dim=-1)
