"""Slow, simple reference implementations used as test oracles."""
