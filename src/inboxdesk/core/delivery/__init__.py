"""Delivery across subscribers: the provider's code read from its answer (codes.py), the
scanned notifications grouped by cause (grouping.py), and what a code means (advice.py)."""
