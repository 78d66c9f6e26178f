"""Placeholder until the analysis lands; the lead overwrites this."""
