"""The Preferences view (`5`): the current subscriber's channels, global and per workflow,
where each value comes from, and a toggle that is a write through the outbox.

Another view opens it on one workflow and channel with `open_preferences` (opening.py).
"""
