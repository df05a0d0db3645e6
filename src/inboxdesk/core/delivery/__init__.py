"""Delivery knowledge of the core: provider codes and what they mean."""
