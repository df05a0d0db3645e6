"""Delivery across subscribers: the provider's code read from its answer (codes.py) and
the scanned notifications grouped by cause (grouping.py)."""
