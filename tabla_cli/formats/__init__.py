"""Readers of match transcript formats, one module per format."""
