"""The Activity view (`4`): a subscriber's notifications across every channel, and the
timeline of one notification's delivery."""
