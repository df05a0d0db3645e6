"""The inbox view: a subscriber's messages as the subscriber sees them."""
